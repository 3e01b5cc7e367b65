"""A name as templates set it apart, read whole: a Chinese name given name first, spaced
out, or its family name set apart (in another colour or weight, in a box of its own
beside, over or under the given name), family name first; a name hyphenated in a narrow
justified sidebar.  From a text layer and by OCR; typst pages of invented people, and
``zh_names.plausible`` says which reading of Chinese is a name."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from cvagent_cli.formats.reading.importer import import_bytes
from cvagent_cli.formats.reading.pdf_layout import Word
from cvagent_cli.formats.reading.pdf_lines import PageLine
from cvagent_cli.formats.reading.pdf_zh_names import chinese_name_whole
from cvagent_cli.formats.reading.structure import Recognition
from tests.support.bad_documents import typst_pdf

ROOT = Path(__file__).resolve().parents[2]

PAGE = (
    "#set page(width: 595pt, height: 842pt, margin: 50pt)\n"
    '#set text(font: ("Noto Sans", "Noto Sans SC"), size: 10pt)\n'
)
BODY = """
#v(10pt)
电话：138-0000-1234 · 邮箱：shiqi.w\\@example.com · 上海
#v(14pt)
#text(14pt, weight: "bold")[工作经历]
#line(length: 100%)
*数据工程师* · 星河科技有限公司 #h(1fr) 2021.03 – 至今
- 负责实时数仓建设，日处理数据 12 亿条，查询延迟降低 40%。
#text(14pt, weight: "bold")[教育背景]
#line(length: 100%)
*计算机科学与技术 本科* · 华东理工大学 #h(1fr) 2014.09 – 2018.06
"""

HEADERS = {
    "family name in grey after": ("#text(28pt)[诗琪 #text(fill: gray)[王]]", "王诗琪"),
    "family name light after": (
        '#text(28pt)[#text(weight: "bold")[诗琪] #text(weight: "light")[王]]',
        "王诗琪",
    ),
    "family name a box apart before": ("#text(28pt)[王 #h(1.2em) 诗琪]", "王诗琪"),
    "family name a box apart after": ("#text(28pt)[诗琪 #h(1.2em) 王]", "王诗琪"),
    "family name over the given name": (
        '#text(28pt, weight: "bold")[王] \\ #text(28pt, weight: "bold")[诗琪]',
        "王诗琪",
    ),
    "given name over the family name": (
        '#text(28pt, weight: "bold")[诗琪] \\ #text(28pt, weight: "bold")[王]',
        "王诗琪",
    ),
    "spaced out": ("#text(28pt, tracking: 0.5em)[王诗琪]", "王诗琪"),
    "family name spaced off": ("#text(28pt)[#text(fill: gray)[王] 诗琪]", "王诗琪"),
}


def _page(header: str) -> bytes:
    pytest.importorskip("typst")
    return typst_pdf(PAGE + header + BODY)


@pytest.mark.parametrize("shape", list(HEADERS))
def test_a_text_layer_reads_a_chinese_name_set_apart_whole(shape: str) -> None:
    header, name = HEADERS[shape]
    md = import_bytes(_page(header), "resume.pdf", ".pdf").markdown
    assert md.startswith(f"# {name}\n\n电话"), md[:80]


def _line(text: str, x0: float, top: float, size: float) -> PageLine:
    width = size * len(text.replace(" ", ""))
    return PageLine([Word(text, x0, x0 + width, top, top + size, size, True)], 0)


@pytest.mark.parametrize(
    ("text", "read"),
    [
        ("晨阳 宋", "宋晨阳"),  # a given name first
        ("晨阳 阚", "阚晨阳"),  # with a family name rarer than the table's
        ("张伟 男", "张伟 男"),  # a name and its gender: not turned round
        ("欧阳 明", "欧阳明"),  # a two-character family name
        ("王 诗 琪", "王诗琪"),
        ("一鸣李", "李一鸣"),  # OCR saw no space before the family name
        ("诗琪", "诗琪"),  # nothing beside it
        ("教育背景", "教育背景"),
    ],
)
def test_a_chinese_name_line_is_read_family_name_first(text: str, read: str) -> None:
    name = _line(text, 50, 50, 28)
    lines = [name, _line("电话：138-0000-1234", 50, 100, 10)]
    chinese_name_whole(lines, name, False, Recognition())
    assert name.text() == read and len(lines) == 2


def test_a_family_name_far_from_the_given_name_or_smaller_is_not_joined() -> None:
    name = _line("诗琪", 50, 50, 28)
    far = _line("王", 400, 50, 28)  # on the row, but across the page
    small = _line("王", 50, 85, 10)  # under it, in the body's size
    lines = [name, far, small]
    chinese_name_whole(lines, name, False, Recognition())
    assert name.text() == "诗琪" and len(lines) == 3


def test_a_family_name_ocr_read_on_one_row_with_a_contact_line_is_taken_from_its_cell() -> None:
    # "马" over "俊杰", and the city of the contact lines at the right level with "马"
    family = _line("马", 42, 65, 31)
    family.words.append(Word("南京", 520, 556, 75, 87, 10, False))
    name = _line("俊杰", 41, 100, 34)
    lines = [family, name, _line("算法工程师", 40, 141, 11.7)]
    chinese_name_whole(lines, name, True, Recognition())
    assert name.text() == "马俊杰"
    assert [ln.text() for ln in lines] == ["南京", "马俊杰", "算法工程师"]


@pytest.mark.slow
@pytest.mark.parametrize(
    ("shape", "dpi"),
    [
        ("family name in grey after", 150),  # OCR reads "诗琪王": no space
        ("family name over the given name", 150),
        ("family name a box apart before", 300),
        ("big and thin", 300),  # the detector's box leaves the family name out
    ],
)
def test_a_scanned_page_reads_a_chinese_name_set_apart_whole(shape: str, dpi: int) -> None:
    pytest.importorskip("rapidocr_onnxruntime", reason="the ocr extra (in the test extra)")
    sys.path.insert(0, str(ROOT / "bench"))
    from ocr_accuracy import image_only_pdf

    header, name = HEADERS.get(shape, ('#text(36pt, weight: "thin")[李一鸣]', "李一鸣"))
    scan = image_only_pdf(_page(header), dpi=dpi)
    md = import_bytes(scan, "scan.pdf", ".pdf").markdown
    assert md.startswith(f"# {name}\n\n"), md[:80]


HYPHENATED = """#set page(width: 595pt, height: 842pt, margin: 40pt)
#set text(size: 10pt)
#grid(columns: (115pt, 1fr), gutter: 24pt,
  [#set par(justify: true)
   #set text(hyphenate: true, lang: "en")
   #text(17pt)[Corentin Dunmore]

   Product Manager

   corentin.d\\@example.com

   Portland, OR],
  [*EXPERIENCE*

   *Brambleway Logistics* #h(1fr) 2021 – 2024

   - Built a deploy pipeline used by eighteen teams across two regions.])
"""


@pytest.mark.slow
def test_a_name_hyphenated_in_a_narrow_sidebar_is_read_whole_from_a_scan() -> None:
    pytest.importorskip("rapidocr_onnxruntime", reason="the ocr extra (in the test extra)")
    pytest.importorskip("typst")
    sys.path.insert(0, str(ROOT / "bench"))
    from ocr_accuracy import image_only_pdf

    pdf = typst_pdf(HYPHENATED)
    assert import_bytes(pdf, "r.pdf", ".pdf").markdown.startswith("# Corentin Dunmore\n")
    md = import_bytes(image_only_pdf(pdf, dpi=150), "scan.pdf", ".pdf").markdown
    assert md.startswith("# Corentin Dunmore\n"), md[:80]


def test_a_lighter_family_name_ocr_measures_smaller_is_still_joined_on_a_scan_only() -> None:
    # a regular "黄" over a bold "晓彤", both 36 pt: OCR's box for the one character hugs its
    # ink (27 against 34); a text layer's sizes are exact, and a family name that much
    # smaller on one is not the name's
    for ocr, read in ((True, "黄晓彤"), (False, "晓彤")):
        family, name = _line("黄", 44, 63, 26.7), _line("晓彤", 42, 100, 33.5)
        lines = [family, name]
        chinese_name_whole(lines, name, ocr, Recognition())
        assert name.text() == read
    far_smaller = _line("黄", 44, 63, 20)  # under OCR too: half as large again at most
    name = _line("晓彤", 42, 100, 33.5)
    chinese_name_whole([far_smaller, name], name, True, Recognition())
    assert name.text() == "晓彤"
