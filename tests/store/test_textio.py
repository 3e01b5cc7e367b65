"""Decoding, binary detection, newlines and encodings kept through an edit."""

from __future__ import annotations

import pytest

from cvagent_cli.errors import InputError
from cvagent_cli.store.atomic import atomic_write_bytes
from cvagent_cli.store.textio import UnencodableTextError, decode_bytes, read_text_file, split_lines
from tests.conftest import SAMPLES


@pytest.mark.parametrize(
    "raw, encoding, bom",
    [
        ("Résumé — Ann\n".encode(), "utf-8", b""),
        (b"\xef\xbb\xbf# Ann\n", "utf-8", b"\xef\xbb\xbf"),
        (b"\xff\xfe" + "# 张三\n".encode("utf-16-le"), "utf-16-le", b"\xff\xfe"),
        (b"\xfe\xff" + "# 张三\n".encode("utf-16-be"), "utf-16-be", b"\xfe\xff"),
        ("# 张三\n## 工作经历\n- 负责后端开发\n".encode("gbk"), "gb18030", b""),
        ("# 张三\n- 𠀋 罕见字\n".encode("gb18030"), "gb18030", b""),
        ("# 张三\n熟悉Python、Go和Java；负责“支付”系统\n".encode("gbk"), "gb18030", b""),
        ("# Zoë – “Café” naïve\r\n".encode("cp1252"), "cp1252", b""),
        # UTF-16 saved without a byte-order mark is text, not binary
        ("# Ann Lee\n\n## Experience\n- Built it\n".encode("utf-16-le"), "utf-16-le", b""),
        ("# Ann Lee\n\n## Experience\n- Built it\n".encode("utf-16-be"), "utf-16-be", b""),
        ("# 张三\n\n## 工作经历\n- 负责一个后端\n".encode("utf-16-le"), "utf-16-le", b""),
    ],
)
def test_encodings_are_detected_and_kept(raw, encoding, bom):
    decoded = decode_bytes(raw)
    assert (decoded.format.encoding, decoded.format.bom) == (encoding, bom)
    assert decoded.format.encode(decoded.text) == raw


@pytest.mark.parametrize(
    "raw, words",
    [
        (b"%PDF-1.7\n%\xe2\xe3", "PDF"),
        (b"PK\x03\x04\x14\x00\x06\x00", "DOCX"),
        (b"\x89PNG\r\n\x1a\n\x00\x00", "PNG"),
        (b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1", "Word"),
        (b"abc\x00def\x00", "binary"),
    ],
)
def test_binary_input_is_refused_with_a_convert_hint(raw, words):
    with pytest.raises(InputError) as info:
        decode_bytes(raw, "cv.bin")
    assert words in info.value.message
    assert "Markdown" in str(info.value)


# A realistic Word-exported English resume: curly quotes and apostrophes, en and em
# dashes, accented names.  Every high byte sits inside or next to a Latin word, so
# GB18030 can decode some of these too (as "CJK" characters standing alone in words).
WINDOWS_RESUME = (
    "# Zoë Müller-Brontë\r\n"
    "Senior Engineer \u2013 Zürich \u2022 zoe@example.com\r\n\r\n"
    "## Experience\r\n"
    "### Café Société \u2014 Lead Developer (2019\u20132024)\r\n"
    "- Led the team\u2019s \u201cno-downtime\u201d migration; cut p99 latency by 40%\r\n"
    "- Mentored engineers on the company\u2019s naïve caching layer\r\n"
)


def test_latin1_bytes_are_read_as_windows_1252_not_chinese():
    raw = "Résumé of José, née Müller".encode("latin-1")
    decoded = decode_bytes(raw)
    assert decoded.text == "Résumé of José, née Müller"
    assert decoded.format.encoding == "cp1252"


@pytest.mark.parametrize(
    "text",
    [
        WINDOWS_RESUME,
        # every high byte followed by a letter: a complete, all-CJK GB18030 reading exists
        "I\u2019m a développeur\u2019s friend\nZoë\u2019s naïve façade\n",
    ],
)
def test_windows_1252_resume_is_decoded_and_round_trips(text):
    raw = text.encode("cp1252")
    decoded = decode_bytes(raw)
    assert decoded.format.encoding == "cp1252"
    assert decoded.text == text
    assert decoded.format.encode(decoded.text) == raw


def test_gb18030_reading_of_windows_text_exists_but_is_rejected():
    raw = "I\u2019m a développeur\u2019s friend\n".encode("cp1252")
    assert raw.decode("gb18030")  # the trap: this is valid GB18030
    assert decode_bytes(raw).format.encoding == "cp1252"


def test_bytes_undefined_in_windows_1252_fall_back_to_latin1_when_rare():
    raw = "Ren\u00e9e M\u00fcller, Z\u00fcrich \u00a9 2024\n".encode("latin-1") * 20 + b"x\x81y\n"
    decoded = decode_bytes(raw)
    assert decoded.format.encoding == "latin-1"
    assert decoded.format.encode(decoded.text) == raw


def test_utf8_with_a_broken_byte_is_refused_not_read_as_mojibake():
    raw = "Café Société – Zürich “quoted”\n".encode() + b"caf\xe9\n"
    with pytest.raises(InputError, match="not UTF-8"):
        decode_bytes(raw)


def test_utf8_with_bad_bytes_says_how_many_and_where():
    """The error points at the first bad byte."""
    raw = "# 陈小明\n\n## 工作经历\n\n- 负责系统开发 café\n".encode()
    raw = raw[:30] + b"\xff\xfe\xfd" + raw[30:]
    with pytest.raises(InputError) as info:
        decode_bytes(raw, "cv.md")
    assert "3 bytes not UTF-8, the first at line 5, column 1, byte 30" in info.value.message
    assert info.value.hint is not None and info.value.hint.startswith("save it as UTF-8")


@pytest.mark.parametrize(
    ("text", "codec", "named", "iconv"),
    [
        ("# 陳小明\n\n## 工作經歷\n\n- 負責系統開發\n", "big5", "Big5", "-f BIG5"),
        (
            "# 山田 太郎\n\n## 職務経歴\n\n- システム開発を担当\n",
            "shift_jis",
            "Shift-JIS",
            "-f SHIFT-JIS",
        ),
    ],
)
def test_big5_and_shift_jis_are_named_with_one_hint(text, codec, named, iconv):
    """One hint that says how to convert, not two spliced together."""
    with pytest.raises(InputError) as info:
        decode_bytes(text.encode(codec), "cv.md")
    assert f"looks like {named}" in info.value.message
    assert info.value.hint == f"save it as UTF-8, e.g. `iconv {iconv} -t UTF-8 cv.md > utf8-cv.md`"


def test_windows_1252_file_refuses_characters_it_cannot_store():
    decoded = decode_bytes(WINDOWS_RESUME.encode("cp1252"))
    assert decoded.format.unencodable("→ 中 é →") == ["→", "中"]
    with pytest.raises(UnencodableTextError, match="cp1252"):
        decoded.format.encode(decoded.text + "- shipped → prod\n")


def test_windows_1252_file_round_trips_through_read_edit_write(tmp_path):
    from cvagent_cli.document.document import ResumeDocument

    path = tmp_path / "cv.md"
    path.write_bytes(WINDOWS_RESUME.encode("cp1252"))
    doc = ResumeDocument.from_path(path)
    assert doc.render() == path.read_bytes()
    edited = doc.with_text(doc.text.replace("Led the team", "Led the team\u2019s six engineers"))
    atomic_write_bytes(path, edited.render())
    expected = WINDOWS_RESUME.replace("Led the team", "Led the team\u2019s six engineers")
    assert path.read_bytes() == expected.encode("cp1252")
    again = ResumeDocument.from_path(path)
    assert again.format == doc.format and again.text == expected


def test_a_few_control_characters_are_tolerated_and_counted():
    decoded = decode_bytes(b"# Ann\x0c\n- Built \x1b things in a long enough line of text\n" * 3)
    assert decoded.control_chars == 6


@pytest.mark.parametrize("content, words", [(b"", "empty"), (b"  \n\t\n", "blank")])
def test_empty_and_blank_files_are_refused(tmp_path, content, words):
    path = tmp_path / "cv.md"
    path.write_bytes(content)
    with pytest.raises(InputError, match=words):
        read_text_file(path)


def test_missing_and_folder_paths_are_refused(tmp_path):
    with pytest.raises(InputError, match="no such file"):
        read_text_file(tmp_path / "nope.md")
    with pytest.raises(InputError, match="folder"):
        read_text_file(tmp_path)


def test_split_lines_matches_markdown_it_line_ends():
    assert split_lines("a\r\nb\rc\nd") == ["a\r\n", "b\r", "c\n", "d"]
    assert split_lines("x\u2028y\n") == ["x\u2028y\n"]


def _western(text: str) -> str:
    """A sample as Word on Windows would save it: curly quotes, dashes, accented names."""
    text = (
        text.replace("'", "\u2019")
        .replace(" - ", " \u2013 ")
        .replace("--", "\u2014")
        .replace("Senior", "Sénior")
    )
    return "Zoë Müller \u2022 résumé\n" + text


@pytest.mark.parametrize("name", sorted(p.name for p in SAMPLES.glob("en_*.md")))
def test_every_english_sample_saved_as_windows_1252_reads_back_exactly(name):
    text = _western((SAMPLES / name).read_text(encoding="utf-8"))
    raw = text.encode("cp1252", errors="replace")
    decoded = decode_bytes(raw)
    assert decoded.format.encoding == "cp1252"
    assert decoded.format.encode(decoded.text) == raw


@pytest.mark.parametrize("name", sorted(p.name for p in SAMPLES.glob("zh_*.md")))
def test_every_chinese_sample_saved_as_gbk_is_still_gb18030(name):
    text = (SAMPLES / name).read_text(encoding="utf-8")
    decoded = decode_bytes(text.encode("gbk"))
    assert decoded.format.encoding == "gb18030" and decoded.text == text


# -- files cvagent writes for the user: one check, one write ---------------------------------
