"""JSON Resume and rendercv YAML: every sample exports to a file the published schema
accepts, and a JSON Resume export imports back to a resume with every section, entry and
bullet (the JSON of the import is the JSON of the original); JSON Resume files written by
hand in the shapes other tools produce import cleanly; bad files are one-line errors."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import jsonschema
import pytest
import yaml

from cvagent_cli.document.dates import find_dates, find_ranges
from cvagent_cli.document.document import ResumeDocument
from cvagent_cli.errors import InputError
from cvagent_cli.formats.interchange import jsonresume, jsonresume_read, rendercv_yaml
from cvagent_cli.formats.interchange import resume_data as rd
from cvagent_cli.formats.interchange.ecosystem import render
from cvagent_cli.formats.reading.importer import import_bytes, import_file

ROOT = Path(__file__).resolve().parents[2]
SAMPLES = sorted((ROOT / "sample_resumes").glob("*.md"))
HERE = Path(__file__).parent
SCHEMAS = HERE / "schemas"
INPUTS = HERE / "jsonresume"
CONTACTS = ("name", "email", "phone", "linkedin", "github", "website", "location")


def _schema(name: str) -> dict:
    return json.loads((SCHEMAS / name).read_text(encoding="utf-8"))


def json_resume_errors(doc: dict) -> list[str]:
    """Errors against the published schema, with every format checked: the schema is
    draft 4, whose checker knows no ``date``, but the schema's ``format: date`` is what
    a validator of a later draft (and JSON Resume's own tools) check."""
    validator = jsonschema.Draft4Validator(
        _schema("jsonresume-v1.0.0.schema.json"), format_checker=jsonschema.FormatChecker()
    )
    return [f"{list(e.absolute_path)}: {e.message}" for e in validator.iter_errors(doc)]


def rendercv_errors(doc: dict, version: str = "2.8") -> list[str]:
    validator = jsonschema.Draft7Validator(
        _schema(f"rendercv-{version}.schema.json"),
        format_checker=jsonschema.Draft7Validator.FORMAT_CHECKER,
    )
    return [f"{list(e.absolute_path)}: {e.message}" for e in validator.iter_errors(doc)]


def export_json(markdown: str) -> dict:
    return json.loads(render(markdown, ".json")[0])


def _squash(text: str) -> str:
    return "".join(text.replace("**", "").split())


def _strings(value: object) -> list[str]:
    if isinstance(value, str):
        return [value]
    if isinstance(value, dict):
        return [s for v in value.values() for s in _strings(v)]
    if isinstance(value, list):
        return [s for v in value for s in _strings(v)]
    return []


@pytest.mark.parametrize("sample", SAMPLES, ids=lambda p: p.name)
def test_json_resume_export_is_valid_against_the_published_schema(sample: Path) -> None:
    doc = export_json(sample.read_text(encoding="utf-8"))
    assert json_resume_errors(doc) == []
    assert doc["$schema"] == jsonresume.SCHEMA_URL


@pytest.mark.parametrize("sample", SAMPLES, ids=lambda p: p.name)
def test_json_resume_holds_every_section_title_and_bullet(sample: Path) -> None:
    text = sample.read_text(encoding="utf-8")
    original = ResumeDocument.from_text(text)
    doc = export_json(text)
    titles = [s["title"] for s in doc["meta"]["cvagent"]["sections"]]
    assert titles == [s.title for s in rd.top_sections(original)]
    held = _squash(" ".join(_strings(doc)))
    for section in original.sections:
        for bullet in section.bullets:
            # a skills line "Languages: Go, Python" is held as a name and keywords
            # and a dated line "Prize (2021)" as a name and an ISO date
            for piece in re.split(r"[:：,，、]", bullet.text):
                undated = re.sub(r"[(（]?\d{4}\s*年?[)）]?", " ", piece)
                assert _squash(piece) in held or _squash(undated) in held, bullet.text


@pytest.mark.parametrize("sample", SAMPLES, ids=lambda p: p.name)
def test_json_resume_round_trip_keeps_every_section_entry_and_bullet(sample: Path) -> None:
    """md → JSON → md → JSON: the second JSON is the first (every field of every entry),
    and the imported Markdown has the original's section titles, contacts and bullets."""
    text = sample.read_text(encoding="utf-8")
    first = export_json(text)
    result = import_bytes(jsonresume.dumps(first).encode(), "resume.json", ".json")
    assert result.format == "json" and result.notes == []
    assert export_json(result.markdown) == first
    original, back = ResumeDocument.from_text(text), ResumeDocument.from_text(result.markdown)
    assert [s.title for s in rd.top_sections(back)] == [s.title for s in rd.top_sections(original)]
    for field in CONTACTS:
        assert bool(getattr(back.basics, field)) == bool(getattr(original.basics, field)), field
    assert back.basics.email == original.basics.email
    assert back.basics.name == original.basics.name
    kept = {_squash(b.text) for s in back.sections for b in s.bullets}
    for s in original.sections:
        if rd.FIELDS.get(rd.section_kind(s)) in ("work", "projects", "education", "volunteer"):
            for b in s.bullets:
                assert _squash(b.text) in kept, b.text
    entries = lambda d: sum(len(p.entries) for p in rd.read(d).parts)  # noqa: E731
    assert entries(back) == entries(original)


def test_dates_are_iso_8601_and_present_is_no_end_date() -> None:
    doc = export_json((ROOT / "sample_resumes" / "zh_senior_frontend.md").read_text("utf-8"))
    first = doc["work"][0]
    assert first["startDate"] == "2019-03" and "endDate" not in first
    assert doc["work"][1]["endDate"] == "2019-02"
    assert doc["education"][0] == {
        "institution": "复旦大学",
        "area": "计算机科学与技术",
        "studyType": "本科",
        "startDate": "2012-09",
        "endDate": "2016-06",
        "highlights": ["GPA 3.6/4.0，获校级一等奖学金 2 次。"],
    }


def test_english_fields_are_mapped() -> None:
    doc = export_json((ROOT / "sample_resumes" / "en_senior_backend.md").read_text("utf-8"))
    basics = doc["basics"]
    assert basics["label"] == "Senior Backend Engineer"
    assert basics["location"] == {"city": "Seattle", "region": "WA"}
    assert [p["network"] for p in basics["profiles"]] == ["LinkedIn", "GitHub"]
    assert doc["work"][0]["name"] == "Northwind Payments"
    assert doc["work"][0]["position"] == "Staff Software Engineer"
    assert doc["work"][0]["location"] == "Seattle, WA"
    assert doc["skills"][2] == {
        "name": "Infrastructure",
        "keywords": [
            "Kubernetes",
            "Docker",
            "Terraform",
            "AWS (EKS, RDS, SQS, Lambda)",
            "gRPC",
            "Envoy",
        ],
    }
    # a certificate's date is a whole day (format: date): a year stays in the name
    assert doc["certificates"][0] == {
        "name": "AWS Certified Solutions Architect – Professional (2021)"
    }


@pytest.mark.parametrize(
    ("title", "name"),
    [
        ("林小雨 Xiaoyu Lin", "林小雨 Xiaoyu Lin"),
        ("Li Wei 李伟", "Li Wei 李伟"),
        ("Ní Bhriain, Siobhán", "Ní Bhriain, Siobhán"),
        ("Maya Cohen 🚀", "Maya Cohen"),
    ],
)
def test_exports_keep_the_name_and_take_no_emoji_or_contact_line_as_headline(
    title: str, name: str
) -> None:
    text = (
        f"# {title}\n\n📧 maya@example.com | +1 555 010 2030\n\n## Experience\n\n"
        "### Engineer, Acme\n\n2019 – 2021\n\n- Built things for 20 teams\n"
    )
    basics = export_json(text)["basics"]
    assert basics["name"] == name
    assert "label" not in basics and basics["email"] == "maya@example.com"
    assert yaml.safe_load(render(text, ".yaml")[0])["cv"]["name"] == name


def test_a_section_with_no_field_is_kept_as_markdown_in_meta() -> None:
    text = (
        "# Ana Ruiz\n\nana@example.com\n\n## Experience\n\n### Developer — Acme\n2020 – 2021\n\n"
        "- Built things\n\n## Teaching\n\n- Guest lecture (2021)\n- Workshop\n"
    )
    doc = export_json(text)
    assert doc["meta"]["cvagent"]["sections"][1] == {
        "title": "Teaching",
        "markdown": "- Guest lecture (2021)\n- Workshop",
    }
    back = jsonresume_read.to_markdown(doc)[0]
    assert "## Teaching\n\n- Guest lecture (2021)\n- Workshop\n" in back


def _imported(name: str) -> tuple[str, list[str]]:
    result = import_file(INPUTS / name)
    return result.markdown, result.notes


def test_a_json_resume_in_the_schema_samples_shape_imports_every_field() -> None:
    markdown, notes = _imported("en_full_sample.json")
    doc = ResumeDocument.from_text(markdown)
    assert doc.basics.name == "Tobias Ferreira-Lund"
    assert doc.basics.email == "tobias.lund@example.com"
    assert doc.basics.github == "github.com/tlund-example"
    assert "twitter.com/tlund_bits" in markdown  # the site's address and a username
    assert "gitlab.com/tlund" in markdown  # a username only
    assert [s.title for s in rd.top_sections(doc)] == [
        "Summary", "Experience", "Projects", "Education", "Skills", "Volunteering",
        "Awards", "Certifications", "Publications", "Languages", "Interests", "References",
    ]  # fmt: skip
    assert (
        "### Founding Engineer — Squeezebox Labs, Portland, OR\nApr 1, 2021 – Present" in markdown
    )
    assert "### Software Engineer — Cedarline Systems\nJun 1, 2017 – Mar 31, 2021" in markdown
    assert "- Designed a block-sorting codec that beats zstd -19 by 7% on log archives" in markdown
    assert "- Courses: CS 261 - Data Structures, CS 325 - Algorithms" in markdown
    assert "- **Systems (Master):** C, Rust, Go" in markdown
    assert "(https://certs.example.org/ckad/123) (Feb 14, 2023)" in markdown
    assert "- English: Native speaker" in markdown
    assert notes == ["basics.image (a photo) is not imported: resume Markdown has no photo"]
    again = export_json(markdown)
    assert json_resume_errors(again) == []
    assert [w["position"] for w in again["work"]] == ["Founding Engineer", "Software Engineer"]


def test_a_chinese_json_resume_gets_chinese_titles_and_dates() -> None:
    markdown, notes = _imported("zh_sample.json")
    assert notes == []
    assert markdown.startswith("# 夏语桐\n\n数据工程师 | 杭州\n")
    assert (
        "## 工作经历\n\n### 杭州云栖数据科技有限公司 — 高级数据工程师\n2022.03 - 至今\n" in markdown
    )
    assert (
        "## 教育背景\n\n### 浙江工业大学 — 计算机科学与技术 本科\n2015.09 - 2019.06\n" in markdown
    )
    assert "- **大数据：** Flink、Spark、Hive、Kafka" in markdown
    doc = ResumeDocument.from_text(markdown)
    assert doc.language == "zh" and doc.basics.phone == "138-0013-8000"


def test_unknown_fields_and_odd_dates_are_reported_not_dropped_silently() -> None:
    obj = {
        "basics": {"name": "Lea Varga", "nickname": "LV"},
        "work": [
            {"name": "Acme", "position": "Analyst", "startDate": "2020-01-01T00:00:00Z",
             "endDate": "Spring 2022", "team": "Risk"},
        ],
        "hobbies": ["chess"],
    }  # fmt: skip
    markdown, notes = jsonresume_read.to_markdown(obj)
    assert "Jan 1, 2020 – Spring 2022" in markdown
    assert "'hobbies' is not a JSON Resume field; not imported" in notes
    assert "basics.nickname is not a JSON Resume field; not imported" in notes
    assert "work[0].team is not imported" in notes
    assert "work[0].endDate: 'Spring 2022' is not an ISO 8601 date; kept as written" in notes


def test_plain_text_from_json_is_escaped_for_markdown() -> None:
    from markdown_it import MarkdownIt

    obj = {"basics": {"name": "Ines Holt"}, "work": [{"name": "Star*Co", "position": "Dev",
           "highlights": ["# not a heading", "uses *stars* and [brackets]"]}]}  # fmt: skip
    markdown, _ = jsonresume_read.to_markdown(obj)
    html = MarkdownIt("commonmark").render(markdown)
    assert "<li># not a heading</li>" in html
    assert "<li>uses *stars* and [brackets]</li>" in html
    assert "<h3>Dev — Star*Co</h3>" in html and "<em>" not in html
    doc = ResumeDocument.from_text(markdown)  # and cvagent's own reader sees the same text
    assert [b.text for s in doc.sections for b in s.bullets] == [
        "# not a heading",
        "uses *stars* and [brackets]",
    ]
    assert doc.sections[-1].title == "Dev — Star*Co"


@pytest.mark.parametrize(
    ("data", "message"),
    [
        (b'{"basics": {"name": 1', "not valid JSON (line 1, column 22"),
        (b"[1, 2]", "a JSON Resume file is one JSON object, not a list"),
        (b'{"name": "x"}', "no JSON Resume fields"),
        (b'{"work": {"name": "x"}}', "work should be a list, not an object"),
        (b"null", "one JSON object, not null"),
        (  # deeper than the parser's recursion limit
            b'{"work": [{"highlights": ' + b"[" * 2000 + b"]" * 2000 + b"}]}",
            "nested more than 32 levels deep",
        ),
        (  # parsed, but deeper than any reader should walk
            b'{"work": [{"highlights": ' + b"[" * 100 + b"]" * 100 + b"}]}",
            "nested more than 32 levels deep",
        ),
        (b'{"work": [{"highlights": [{"a": 1}]}]}', "work[0].highlights[0] should be text"),
        (b'{"basics": "Ana"}', "basics should be an object, not a string"),
        (b"\xff\xfe{", "not UTF-8 text"),
    ],
)
def test_bad_json_is_an_input_error_naming_the_place(data: bytes, message: str) -> None:
    with pytest.raises(InputError) as caught:
        import_bytes(data, "cv.json", ".json")
    assert message in str(caught.value)


def test_stdin_json_resume_is_recognised_by_its_bytes() -> None:
    data = (INPUTS / "zh_sample.json").read_bytes()
    assert import_bytes(data, "standard input").format == "json"


# -- rendercv --------------------------------------------------------------------------
@pytest.mark.parametrize("sample", SAMPLES, ids=lambda p: p.name)
def test_rendercv_yaml_is_valid_against_rendercvs_schema(sample: Path) -> None:
    """rendercv 2.8's schema takes every sample; 2.3's takes the English ones, and a
    Chinese one but for the 2.8 locale and date template (2.3 has neither)."""
    text, _ = render(sample.read_text(encoding="utf-8"), ".yaml")
    doc = yaml.safe_load(text)
    assert rendercv_errors(doc) == []
    assert doc["design"]["theme"] == "classic"
    old = rendercv_errors(doc, "2.3")
    if sample.name.startswith("en"):
        assert old == [] and "locale" not in doc and doc["design"] == {"theme": "classic"}
    else:
        assert old and all(e.startswith(("['locale'", "['design'")) for e in old), old
        del doc["locale"], doc["design"]["templates"]
        assert rendercv_errors(doc, "2.3") == []
    data = rd.read(ResumeDocument.from_text(sample.read_text(encoding="utf-8")))
    titles = [p.title for p in data.parts if p.field != "basics"]
    assert list(doc["cv"]["sections"]) == titles


def test_rendercv_entries_take_rendercvs_shapes() -> None:
    text, left_out = render(
        (ROOT / "sample_resumes" / "en_new_grad.md").read_text("utf-8"), ".yaml"
    )
    sections = yaml.safe_load(text)["cv"]["sections"]
    assert sections["Education"][0] == {
        "institution": "Carnegie Mellon University",
        "area": "Computer Science",
        "degree": "B.S.",
        "start_date": "2021-08",
        "end_date": "2025-05",
        "location": "Pittsburgh, PA",
        "summary": "(expected)",
        "highlights": [
            "GPA 3.8/4.0; Dean's List 6 semesters",
            "Coursework: Distributed Systems, Operating Systems, Databases, Machine Learning, Computer Networks",
        ],
    }
    assert sections["Internships"][0]["company"] == "Harborview Cloud"
    assert sections["Skills"][0] == {
        "label": "Languages",
        "details": "Python, Go, C, Java, TypeScript, SQL",
    }
    assert sections["Leadership"][0]["bullet"].startswith("Teaching Assistant")
    # +1 555 numbers are no valid numbers: a custom connection (rendercv 2.8) shows it
    cv = yaml.safe_load(text)["cv"]
    assert "phone" not in cv and left_out == []
    assert {"placeholder": "+1 555-010-7788", "url": None, "fontawesome_icon": "phone"} in cv[
        "custom_connections"
    ]


def test_rendercv_gets_an_end_before_the_start_as_text() -> None:
    text, _ = render(
        (ROOT / "sample_resumes" / "en_weak_generalist.md").read_text("utf-8"), ".yaml"
    )
    jobs = yaml.safe_load(text)["cv"]["sections"]["Work Experience"]
    assert jobs[2]["date"] == "2021-06 – 2021-02" and "start_date" not in jobs[2]


def test_rendercv_phone_is_international_when_valid() -> None:
    data = rd.read(ResumeDocument.from_path(ROOT / "sample_resumes" / "zh_mid_java_table.md"))
    assert rendercv_yaml.to_rendercv(data).data["cv"]["phone"] == "+86 138 0013 8000"


def _rendercv():
    """rendercv's own validation of a file's mapping (2.8's, else 2.3's), when installed."""
    try:
        from rendercv.schema.rendercv_model_builder import (
            build_rendercv_model_from_commented_map,
        )
    except ImportError:
        try:
            from rendercv.data.reader import validate_input_dictionary_and_return_the_data_model
        except ImportError:
            return None
        return validate_input_dictionary_and_return_the_data_model
    return build_rendercv_model_from_commented_map


@pytest.mark.skipif(_rendercv() is None, reason="rendercv is not installed (pip install rendercv)")
@pytest.mark.parametrize("sample", SAMPLES, ids=lambda p: p.name)
def test_rendercv_accepts_the_yaml_with_its_own_data_model(sample: Path) -> None:
    validate = _rendercv()
    assert validate is not None
    text, _ = render(sample.read_text(encoding="utf-8"), ".yaml")
    model = validate(yaml.safe_load(text))
    assert model.cv.name


STAND_IN = """[package]
name = "fontawesome"
version = "0.5.0"
entrypoint = "lib.typ"
authors = ["cvagent tests"]
license = "MIT"
description = "Offline stand-in for the icon package rendercv's themes import"
"""


@pytest.mark.slow
@pytest.mark.skipif(_rendercv() is None, reason="rendercv is not installed (pip install rendercv)")
@pytest.mark.parametrize("name", ["en_senior_backend.md", "zh_new_grad.md"])
def test_rendercv_renders_the_yaml_to_a_pdf(tmp_path: Path, name: str) -> None:
    """rendercv's themes import @preview/fontawesome, which typst downloads on first use:
    a stand-in in a package cache of our own keeps the render offline."""
    pdfplumber = pytest.importorskip("pdfplumber")
    package = tmp_path / "cache" / "typst" / "packages" / "preview" / "fontawesome" / "0.5.0"
    package.mkdir(parents=True)
    (package / "typst.toml").write_text(STAND_IN, encoding="utf-8")
    (package / "lib.typ").write_text("#let fa-icon(name, ..args) = box(width: 0.8em)\n")
    sample = ROOT / "sample_resumes" / name
    (tmp_path / "cv.yaml").write_text(render(sample.read_text("utf-8"), ".yaml")[0], "utf-8")
    done = subprocess.run(
        [sys.executable, "-m", "rendercv", "render", "cv.yaml", "-nomd", "-nohtml", "-nopng"],
        capture_output=True,
        text=True,
        timeout=600,
        cwd=tmp_path,
        env={
            "PATH": "/usr/bin:/bin",
            "XDG_CACHE_HOME": str(tmp_path / "cache"),
            "HOME": str(tmp_path),
        },
    )
    assert done.returncode == 0, done.stdout + done.stderr
    (pdf,) = (tmp_path / "rendercv_output").glob("*.pdf")
    with pdfplumber.open(pdf) as document:
        text = "".join(page.extract_text() or "" for page in document.pages)
    data = rd.read(ResumeDocument.from_path(sample))
    squashed = _squash(text)
    assert _squash(data.basics.name) in squashed
    for part in data.parts:
        if part.field in ("work", "projects", "education"):
            first = (
                next(b for e in part.entries for b in e.bullets)
                if any(e.bullets for e in part.entries)
                else None
            )
            if first and name.startswith("en"):  # rendercv 2.3's fonts have no CJK glyphs
                assert _squash(first)[:40] in squashed


# -- issue 31: profiles, nested bullets, rendercv 2.8, rendercv import ----------------------
NESTED = """# Ana Exemplo

M.Sc. Data Scientist · ana@example.com · ana-exemplo.example.dev · codeberg.org/ana-exemplo

## Experience

### Engineer — Acme Corp, Seattle, WA
Jan 2020 – Present

- Led the **payments** rewrite ([design notes](https://notes.example.com/pay))
  - Cut latency 40% - measured at p99
    - p99 from 900 ms to 300 ms
  - Moved 3 services
- Mentored two engineers

## Projects

### Tracker
- Code at github.com/acme-example/tracker and https://tracker.example.io

## Education

### M.Sc. Statistics — Example University
2016 – 2018
"""


def test_only_the_contact_line_makes_profiles() -> None:
    """The contact line's addresses are profiles; an abbreviation on it ("M.Sc.") and a
    project's links in a bullet are not."""
    basics = export_json(NESTED)["basics"]
    assert basics["url"] == "https://ana-exemplo.example.dev"
    assert [p["url"] for p in basics["profiles"]] == ["https://codeberg.org/ana-exemplo"]
    cv = yaml.safe_load(render(NESTED, ".yaml")[0])["cv"]
    linked = [c.get("url") for c in cv.get("custom_connections", [])]
    assert linked == ["https://codeberg.org/ana-exemplo"]
    assert "social_networks" not in cv  # github.com/acme-example/tracker is a project's


def test_json_resume_keeps_each_nested_bullet_once_with_its_level() -> None:
    work = export_json(NESTED)["work"][0]
    assert work["highlights"] == [
        "Led the payments rewrite (design notes (https://notes.example.com/pay))",
        "Cut latency 40% - measured at p99",
        "p99 from 900 ms to 300 ms",
        "Moved 3 services",
        "Mentored two engineers",
    ]
    assert work["highlightLevels"] == [0, 1, 2, 1, 0]
    back, notes = jsonresume_read.to_markdown(export_json(NESTED))
    assert notes == []
    assert (
        "  - Cut latency 40% - measured at p99\n    - p99 from 900 ms to 300 ms\n"
        "  - Moved 3 services\n- Mentored two engineers\n" in back
    )


def test_rendercv_writes_nested_bullets_as_its_sub_bullets_and_keeps_markdown() -> None:
    """rendercv draws "a - b" as a bullet and its sub-bullet (one level): a nested bullet is
    written so, once; a " - " of the text itself is kept from splitting (a no-break space)."""
    cv = yaml.safe_load(render(NESTED, ".yaml")[0])["cv"]
    highlights = cv["sections"]["Experience"][0]["highlights"]
    assert highlights == [
        "Led the **payments** rewrite ([design notes](https://notes.example.com/pay))"
        " - Cut latency 40%\u00a0- measured at p99 - p99 from 900 ms to 300 ms - Moved 3 services",
        "Mentored two engineers",
    ]
    assert cv["headline"] == "M.Sc. Data Scientist"


def test_rendercv_gets_the_chinese_locale_and_date_style() -> None:
    doc = yaml.safe_load(
        render((ROOT / "sample_resumes" / "zh_new_grad.md").read_text("utf-8"), ".yaml")[0]
    )
    assert doc["locale"] == {"language": "mandarin_chinese"}
    assert doc["design"]["templates"] == {"single_date": "YEAR.MONTH_IN_TWO_DIGITS"}
    assert doc["cv"]["headline"]


def _entries(markdown: str) -> list[tuple[str, str, list[str]]]:
    """Each entry of a resume: the section's field, its dates, its bullets."""
    data = rd.read(ResumeDocument.from_text(markdown))
    return [
        (p.field or "", f"{e.dates.start}-{e.dates.end}-{e.dates.current}", e.bullets)
        for p in data.parts
        if p.field in rd.ENTRY_FIELDS
        for e in p.entries
    ]


@pytest.mark.parametrize("sample", SAMPLES, ids=lambda p: p.name)
def test_a_rendercv_export_imports_back_to_the_same_entries(sample: Path) -> None:
    """Markdown → rendercv YAML → ``cvagent import`` → Markdown: the same entries, with
    their dates and bullets, and the same name, e-mail and section titles."""
    text = sample.read_text(encoding="utf-8")
    result = import_bytes(render(text, ".yaml")[0].encode(), "cv.yaml", ".yaml")
    assert result.format == "rendercv" and result.notes == []
    original, back = ResumeDocument.from_text(text), ResumeDocument.from_text(result.markdown)
    assert _entries(result.markdown) == _entries(text)
    assert back.basics.name == original.basics.name
    assert back.basics.email == original.basics.email
    titles = [s.title for s in rd.top_sections(original) if s.kind != "contact"]
    assert [s.title for s in rd.top_sections(back)] == titles


def test_a_rendercv_file_imports_nested_bullets_bold_and_links() -> None:
    result = import_bytes(render(NESTED, ".yaml")[0].encode(), "standard input")
    assert result.format == "rendercv"  # told by its top-level cv: key
    assert (
        "- Led the **payments** rewrite ([design notes](https://notes.example.com/pay))\n"
        "  - Cut latency 40% - measured at p99\n  - p99 from 900 ms to 300 ms\n" in result.markdown
    )


@pytest.mark.parametrize(
    ("data", "message"),
    [
        (b"cv: [unclosed", "not valid YAML (line 1, column"),
        (b"name: Ana\nsections: {}\n", "not a rendercv file (no 'cv:' section)"),
        (b"cv:\n  name: Ana\n  sections: [1, 2]\n", "cv.sections should be a mapping"),
        (b"cv:\n  sections:\n    Experience: text\n", "cv.sections.Experience should be a list"),
    ],
)
def test_bad_rendercv_yaml_is_an_input_error_naming_the_place(
    data: bytes, message: str, tmp_path: Path
) -> None:
    (tmp_path / "cv.yml").write_bytes(data)
    with pytest.raises(InputError, match=re.escape(message)):
        import_file(tmp_path / "cv.yml")


# -- the command line -----------------------------------------------------------------
def _cvagent(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "cvagent_cli", *args],
        capture_output=True,
        text=True,
        timeout=180,
        cwd=cwd,
        env={"PYTHONPATH": str(ROOT), "PATH": "/usr/bin:/bin", "NO_COLOR": "1"},
    )


@pytest.mark.slow
def test_cli_exports_json_and_yaml_and_imports_json(tmp_path: Path) -> None:
    sample = ROOT / "sample_resumes" / "zh_new_grad.md"
    done = _cvagent("export", str(sample), "-o", "r.json", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert json_resume_errors(json.loads((tmp_path / "r.json").read_text("utf-8"))) == []
    again = _cvagent("export", str(sample), "-o", "r.json", cwd=tmp_path)
    assert again.returncode == 2 and "already exists" in again.stderr
    done = _cvagent("import", "r.json", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert "imported r.json (json) → r.md" in done.stderr
    assert (tmp_path / "r.md").read_text("utf-8").startswith("# 王晓雨\n")
    done = _cvagent("export", str(sample), "-o", "cv.yml", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert rendercv_errors(yaml.safe_load((tmp_path / "cv.yml").read_text("utf-8"))) == []
    done = _cvagent("import", "cv.yml", "-o", "back.md", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert "imported cv.yml (rendercv) → back.md" in done.stderr
    assert (tmp_path / "back.md").read_text("utf-8").startswith("# 王晓雨\n")
    (tmp_path / "other.yaml").write_text("name: not a resume\n", encoding="utf-8")
    done = _cvagent("import", "other.yaml", cwd=tmp_path)
    assert done.returncode == 2 and "Traceback" not in done.stderr
    assert "other.yaml: not a rendercv file (no 'cv:' section)" in done.stderr


@pytest.mark.slow
def test_cli_bad_json_is_one_line_exit_2(tmp_path: Path) -> None:
    (tmp_path / "bad.json").write_text('{"basics": ', encoding="utf-8")
    done = _cvagent("import", "bad.json", cwd=tmp_path)
    assert done.returncode == 2
    assert done.stderr.startswith("cvagent: error: bad.json: not valid JSON (line 1, column 12")
    assert "Traceback" not in done.stderr and not (tmp_path / "bad.md").exists()


# -- resumes in the shapes people write them (tests/analysis/corpus) ----------------------
_WORD_RE = re.compile(r"[A-Za-z0-9][\w.+#-]*[\w+#]|[A-Za-z0-9]|[\u4e00-\u9fff]")
CORPUS = sorted((ROOT / "tests" / "analysis" / "corpus").glob("*.md"))


@pytest.mark.parametrize("path", CORPUS, ids=lambda p: p.name)
def test_corpus_resumes_export_valid_files_and_lose_no_word(path: Path) -> None:
    text = path.read_text(encoding="utf-8")
    doc = export_json(text)
    assert json_resume_errors(doc) == []
    assert rendercv_errors(yaml.safe_load(render(text, ".yaml")[0])) == []
    held = " ".join(_strings(doc)).casefold()
    original = ResumeDocument.from_text(text)
    for section in rd.top_sections(original):
        if section.kind == "contact":
            continue  # "Phone: …" lines: the values are basics fields, the labels go
        for s in [section, *(c for c in original.sections if c.id.startswith(section.id + "/"))]:
            for item in [*s.bullets, *s.paragraphs]:
                text = item.text
                for r in find_ranges(text):  # dates are held as ISO dates
                    text = text.replace(r.raw, " ")
                for d in find_dates(text):
                    text = text.replace(d.text, " ")
                missing = [w for w in _WORD_RE.findall(text) if w.casefold() not in held]
                assert not missing, (s.title, item.text)
    markdown, notes = jsonresume_read.to_markdown(doc)
    assert notes == []
    back = ResumeDocument.from_text(markdown)
    assert [s.title for s in rd.top_sections(back)] == [s.title for s in rd.top_sections(original)]
