"""The top of the page as builders and office forms print it: the cases the first corpus
read badly, made again with the real tools on new invented people (all dev or held-out by
the manifest's rule, like every producer).

- ``rendercv-last-updated``: rendercv 2.3 themes with their "last updated" stamp at the top
  of the page (the default, and a localised template: "Updated November 2026", "最后更新于
  2026年11月") over a name set small (rendercv's ``header.name_font_size``, 11-12 pt);
- ``docx-wps-habits`` / ``libreoffice-wps-habits``: a form as WPS Office templates lay it
  out — a spaced document title ("个 人 简 历", "简　　历", "R E S U M E") and no name
  line, a bordered details grid with labels padded by full-width spaces ("姓　　名"), a
  photo cell spanning its rows, typed "●" bullets.  WPS itself is not installable here (no
  Linux package on the Debian or PyPI indexes): python-docx writes the DOCX with those
  habits, and LibreOffice prints it — named for the habits, not for WPS;
- ``libreoffice-narrow-cells``: LibreOffice's PDF of a DOCX whose details table puts three
  label/value pairs on a row, so the e-mail and the link wrap inside their narrow cells.
"""

from __future__ import annotations

import copy
from pathlib import Path

import docx
from docx.shared import Cm, Pt
from people import Person
from produce_office import (
    add_bullet_numbering,
    body_sections,
    details_grid,
    set_fonts,
    shade,
    soffice_pdf,
    underlined_title,
    widths,
)
from produce_rendercv import make_rendercv, rendercv_yaml
from registry import producer

PLAN = [("en", {}), ("zh", {}), ("en", {}), ("zh", {})]


def _index(stem: str) -> int:
    return int(stem.split("-")[1]) - 1  # "zh-02" -> 1


# ---------------------------------------------------------------- rendercv


_THEMES = ("classic", "sb2nov", "moderncv", "engineeringclassic")
_LOCALES = {
    "en": [
        {},  # rendercv's default: "Last updated in Nov 2026"
        {"last_updated_date_template": "Updated TODAY", "date_template": "FULL_MONTH_NAME YEAR"},
    ],
    "zh": [
        {"last_updated_date_template": "最后更新于 TODAY", "date_template": "YEAR年MONTH月"},
        {},
    ],
}


@producer("rendercv", "rendercv-last-updated", PLAN)
def produce_rendercv_last_updated(person: Person, out: Path, stem: str, lang: str):
    import produce_rendercv

    i = _index(stem)
    theme = _THEMES[(2 * i + (lang == "zh")) % len(_THEMES)]
    locale = _LOCALES[lang][i % 2]

    def styled(p: Person, t: str) -> dict:
        data = rendercv_yaml(p, t)
        data["design"].setdefault("header", {})["name_font_size"] = f"{11 + i % 2}pt"
        if locale:
            data["locale"] = dict(locale)
        return data

    produce_rendercv.rendercv_yaml = styled
    try:
        files, skip, _ = make_rendercv(theme)(person, out, stem, lang)
    finally:
        produce_rendercv.rendercv_yaml = rendercv_yaml
    stamp = locale.get("last_updated_date_template", "Last updated in TODAY")
    return (
        files,
        skip,
        f"rendercv 2.3, theme {theme}, name at {11 + i % 2} pt, stamp '{stamp}' at the top",
    )


# ---------------------------------------------------------------- WPS habits

_TITLES = {
    "zh": ["个 人 简 历", "简\u3000\u3000历", "个人简历表", "个  人  简  历"],
    "en": ["R E S U M E", "Curriculum Vitae", "PERSONAL RESUME", "RESUME"],
}


def _pad(label: str) -> str:
    """Two-character labels padded to four with full-width spaces ("姓　　名"), as WPS
    template users align them."""
    return f"{label[0]}\u3000\u3000{label[1]}" if len(label) == 2 else label


def docx_wps_form(person: Person, index: int) -> docx.Document:
    zh = person.lang == "zh"
    d = docx.Document()
    set_fonts(d, person.lang)
    if zh:
        d.styles["Normal"].element.rPr.rFonts.set(
            "{http://schemas.openxmlformats.org/wordprocessingml/2006/main}eastAsia", "宋体"
        )
    title = d.add_paragraph()
    title.alignment = 1
    r = title.add_run(_TITLES[person.lang][index % 4])
    r.bold, r.font.size = True, Pt(22)
    pairs = (
        [
            ("姓名", person.name),
            ("性别", "女" if index % 2 else "男"),
            ("电话", person.phone),
            ("邮箱", person.email),
            ("现居", person.location),
            ("求职意向", person.headline),
        ]
        if zh
        else [
            ("Name", person.name),
            ("Gender", "Female" if index % 2 else "Male"),
            ("Phone", person.phone),
            ("Email", person.email),
            ("City", person.location),
            ("Objective", person.headline),
        ]
    )
    table = d.add_table(rows=3, cols=5)
    table.style = "Table Grid"
    for i, (label, value) in enumerate(pairs):
        row, col = divmod(i, 2)
        cells = table.rows[row].cells
        cells[2 * col].paragraphs[0].add_run(_pad(label) if zh else label).bold = True
        shade(cells[2 * col], "F2F2F2")
        cells[2 * col + 1].paragraphs[0].add_run(value)
    photo = table.cell(0, 4).merge(table.cell(2, 4))
    photo.paragraphs[0].add_run("照片" if zh else "Photo")
    photo.paragraphs[0].alignment = 1
    widths(table, (2.2, 4.2, 2.2, 4.8, 2.6))
    num_id = add_bullet_numbering(d, "●", "宋体" if zh else "Arial")
    body_sections(d, person, underlined_title, num_id, 16.5)
    d.sections[0].left_margin = d.sections[0].right_margin = Cm(2.2)
    return d


@producer("docx", "docx-wps-habits", PLAN)
def produce_docx_wps(person: Person, out: Path, stem: str, lang: str):
    path = out / f"{stem}.docx"
    docx_wps_form(person, _index(stem)).save(path)
    return [path], set(), "python-docx, WPS template habits: spaced title, no name line, grid"


@producer("libreoffice", "libreoffice-wps-habits", PLAN)
def produce_libreoffice_wps(person: Person, out: Path, stem: str, lang: str):
    source = out / f"{stem}.source.docx"
    docx_wps_form(copy.deepcopy(person), _index(stem)).save(source)
    soffice_pdf(source, out / f"{stem}.pdf")
    return (
        [out / f"{stem}.pdf", source],
        set(),
        "LibreOffice Writer PDF of a DOCX with WPS template habits (spaced title, no name line)",
    )


# ---------------------------------------------------------------- narrow cells


def docx_narrow_cells(person: Person) -> docx.Document:
    zh = person.lang == "zh"
    d = docx.Document()
    set_fonts(d, person.lang)
    labels = (
        ("姓名", "电话", "邮箱", "城市", "意向", "主页")
        if zh
        else ("Name", "Phone", "Email", "City", "Role", "Web")
    )
    table = details_grid(d, person, labels, per_row=3)
    widths(table, (1.4, 3.6, 1.4, 3.0, 1.4, 3.0))
    num_id = add_bullet_numbering(d, "\uf0b7", "Symbol")
    body_sections(d, person, underlined_title, num_id, 16.5)
    from people import Section

    person.sections.insert(0, Section("details", "基本信息" if zh else "Personal Details"))
    return d


@producer("libreoffice", "libreoffice-narrow-cells", PLAN)
def produce_libreoffice_narrow(person: Person, out: Path, stem: str, lang: str):
    source = out / f"{stem}.source.docx"
    docx_narrow_cells(copy.deepcopy(person)).save(source)
    docx_narrow_cells(person)  # the same sections for the labels
    soffice_pdf(source, out / f"{stem}.pdf")
    return (
        [out / f"{stem}.pdf", source],
        set(),
        "LibreOffice Writer PDF of a DOCX whose details table wraps the e-mail in a narrow cell",
    )
