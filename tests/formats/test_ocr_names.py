"""The name on a scanned page: what OCR does to the top of a resume, and the rules that read
the name through it (formats/reading/pdf_header.py and ocr_names.py; in ocr_page.py two
word-break rules and the large text the detector leaves out).

The unit tests give ``choose_name`` lines shaped as OCR gives them (sizes that are ink
heights, words glued, a letter misread, a contact line on the name's row); the slow ones
rasterize dev corpus pages and read them with OCR (bench/ocr_accuracy.py measures all of
them).  Invented people only.
"""

from __future__ import annotations

import json
import sys
from dataclasses import replace
from pathlib import Path
from types import SimpleNamespace

import numpy as np
import pytest

from cvagent_cli.document import zh_names
from cvagent_cli.formats.reading import ocr_page
from cvagent_cli.formats.reading.importer import import_bytes
from cvagent_cli.formats.reading.ocr_names import capital_i, chinese_name_as_written
from cvagent_cli.formats.reading.pdf_glyphs import OCR_FONT, ink_share
from cvagent_cli.formats.reading.pdf_header import choose_name, is_date_stamp
from cvagent_cli.formats.reading.pdf_layout import Word, make_lines
from cvagent_cli.formats.reading.pdf_lines import PageLine
from cvagent_cli.formats.reading.structure import Recognition
from tests.formats.test_ocr import _line

ROOT = Path(__file__).resolve().parents[2]
CORPUS = ROOT / "tests" / "formats" / "import_corpus"
BODY = 10.0


def _words(text: str, x0: float, top: float, size: float, font: str) -> list[Word]:
    words, x = [], x0
    for token in text.split():
        width = 0.6 * size * len(token)
        words.append(Word(token, x, x + width, top, top + 1.2 * size, size, False, font=font))
        x += width + 0.25 * size
    return words


def _page(
    *rows: tuple[str, float, float] | list[tuple[str, float, float, float]],
) -> list[PageLine]:
    """Page-one lines from ``(text, top, size)`` at the left margin, or a row of cells
    ``[(text, x0, top, size), …]``, in OCR's font, over a body line at the page's foot
    (the top of the page is its top 30%)."""
    lines = []
    for row in [*rows, _body(760)]:
        cells = [(row[0], 40.0, row[1], row[2])] if isinstance(row, tuple) else row
        words = [w for text, x0, top, size in cells for w in _words(text, x0, top, size, OCR_FONT)]
        lines.append(PageLine(words, 0))
    return lines


def _body(top: float) -> tuple[str, float, float]:
    return ("Built a deploy pipeline used by eighteen teams across two regions", top, BODY)


def _name(lines: list[PageLine]) -> str:
    return " ".join(ln.text() for ln in lines if ln.role == "title")


def test_a_name_without_descenders_beats_a_subtitle_with_them() -> None:
    # 32 pt "Thaddeus Eberhardt" over 25.6 pt "Data Engineer": OCR measures the ink, and the
    # g of Engineer reaches lower than any letter of the name (24.2 against 25.0)
    lines = _page(("Thaddeus Eberhardt", 72, 24.2), ("Data Engineer", 109, 25.0), _body(160))
    assert _name(choose_name(lines, BODY, Recognition())) == "Thaddeus Eberhardt"


def test_a_name_stacked_over_two_lines_whose_ink_heights_differ_is_one_name() -> None:
    # "Delphine" (a descender) and "Nakashima-Ford" (none), wrapped in a narrow cell, with
    # the other column's title read between them
    lines = _page(
        ("Delphine", 73.5, 17.6),
        [("Professional Summary", 212, 96.4, 12.2)],
        ("Nakashima-Ford", 99.0, 15.1),
        ("Site Reliability Engineer", 134, 8.9),
        _body(160),
    )
    assert _name(choose_name(lines, BODY, Recognition())) == "Delphine Nakashima-Ford"


def test_of_a_stacked_name_the_first_line_is_taken_though_ocr_measures_it_smaller() -> None:
    lines = _page(("Priyanka", 39, 15.8), ("Lindqvist", 55, 17.1), ("Data Engineer", 73, 10.2))
    assert _name(choose_name(lines, BODY, Recognition())) == "Priyanka Lindqvist"


def test_a_contact_line_on_the_row_of_a_stacked_name_stays_out_of_it() -> None:
    # OCR puts lines on a row by their middle: the 10 pt link level with the middle of the
    # 36 pt "HALLORAN" shares its row; it stays where it was read, after the e-mail
    lines = _page(
        [("(303) 555-0175", 495, 55, 10.2)],
        ("OREN", 59.4, 25.7),
        [("oren.halloran@example.com", 441, 73, 8.8)],
        [("HALLORAN", 42, 96.9, 25.8), ("github.com/orenhal-example", 441, 97, 10.2)],
        ("Product Manager", 138.8, 11.7),
    )
    out = choose_name(lines, BODY, Recognition())
    texts = [ln.text() for ln in out]
    assert _name(out) == "OREN HALLORAN"
    assert texts.index("oren.halloran@example.com") < texts.index("github.com/orenhal-example")


def test_a_section_title_read_on_the_name_line_is_cut_off() -> None:
    # the detector read the name and the next column's "SUMMARY" (small capitals read
    # "suMMARY") as one line: they nearly touch
    lines = _page(
        ("Delphine Abernathy suMMARY", 30.4, 21.0),
        ("UX Researcher", 54, 9.7),
        ("delphine.abernathy@example.net", 73, 10.2),
    )
    out = choose_name(lines, BODY, Recognition())
    assert _name(out) == "Delphine Abernathy"
    assert [ln.text() for ln in out][1] == "suMMARY"


def test_a_section_title_read_on_a_name_read_without_its_space_is_cut_off() -> None:
    # a name in two runs whose space OCR did not see, and the next column's title
    lines = _page(
        ("DelphineAbernathy SUMMARY", 30.4, 21.0),
        ("UX Researcher", 54, 9.7),
        ("delphine.abernathy@example.net", 73, 10.2),
    )
    out = choose_name(lines, BODY, Recognition())
    assert _name(out) == "Delphine Abernathy"
    assert [ln.text() for ln in out][1] == "SUMMARY"


@pytest.mark.parametrize("value", ["Marisol Ashcombe", "Marisol AshcombePhone"])
def test_a_name_in_a_details_grid_is_its_field_not_a_cell_ocr_measures_a_little_taller(
    value: str,
) -> None:
    # ink heights vary by a quarter over one font: "City" (12.0 over a 10.8 body) is no
    # name; the value of the Name cell is, up to the next label however near it stands
    lines = _page(
        ("Personal Details", 109, 10.3),
        [("Name", 90, 139, 9.3), (value, 199, 139, 9.3), ("(720) 555-0148", 420, 139, 9.3)],
        [("City", 91, 150, 12.0), ("Austin, TX", 199, 150, 12.0)],
    )
    assert _name(choose_name(lines, 10.8, Recognition())) == "Marisol Ashcombe"


def test_a_name_read_from_its_field_is_spelled_as_the_e_mail_too() -> None:
    lines = _page(
        ("Personal Details", 109, 10.3),
        [("Name", 90, 139, 9.3), ("Ezekiel Thornquistt", 199, 139, 9.3)],
        [("Email", 91, 163, 9.3), ("ezekiel.thornquist@example.org", 199, 163, 9.3)],
    )
    assert _name(choose_name(lines, 10.8, Recognition())) == "Ezekiel Thornquist"


def test_a_name_justified_and_hyphenated_in_a_narrow_sidebar_is_one_name() -> None:
    # "Corentin" and "Dun-" stretched apart to the sidebar's edge, "more" under them with no
    # tall letter (its box starts lower than a full line's)
    lines = _page(
        [("Corentin", 42.6, 39, 11.7), ("Dun-", 143.1, 39, 13.5)],
        ("more", 65, 7.9),
        ("Product Manager", 92, 9.7),
    )
    out = choose_name(lines, 9.5, Recognition())
    assert [ln.text() for ln in out if ln.role == "title"] == ["Corentin Dun-", "more"]


def test_a_web_address_is_never_the_name() -> None:
    lines = _page(("UX Researcher", 30, 9.7), ("Portland,OR github.com/ana-example", 95, 11.3))
    assert _name(choose_name(lines, BODY, Recognition())) == ""


def test_a_name_misread_by_one_stroke_is_spelled_as_its_e_mail_spells_it() -> None:
    recognition = Recognition()
    lines = _page(("ilse.ashcombe@example.net", 50, 8.8), ("Illse Ashcombe", 88, 18.3), _body(115))
    assert _name(choose_name(lines, BODY, recognition)) == "Ilse Ashcombe"
    assert any("Illse" in n for n in recognition.notes)


def test_a_name_misread_in_each_word_is_spelled_as_the_e_mail_holding_both_words() -> None:
    # "Il" read "ll" and "q" read "g": each word one look-alike letter from the address's
    lines = _page(("ilse.lindqvist@example.net", 50, 8.8), ("llse Lindgvist", 88, 18.3))
    assert _name(choose_name(lines, BODY, Recognition())) == "Ilse Lindqvist"


@pytest.mark.parametrize(
    ("printed", "email"),
    [
        ("Jon Ashcombe", "john.ashcombe@example.net"),
        (
            "llse Lindgvist",
            "ilse.lindberg@example.net",
        ),  # one word the address does not hold  # another name, not a misreading
        ("Illse Ashcombe", "ilse42@example.net"),  # no word of the name to confirm it
    ],
)
def test_a_name_the_e_mail_does_not_confirm_is_kept_as_read(printed: str, email: str) -> None:
    lines = _page((email, 50, 8.8), (printed, 88, 18.3), _body(115))
    assert _name(choose_name(lines, BODY, Recognition())) == printed


def test_a_text_layer_name_is_never_respelled() -> None:
    lines = _page(("ilse.ashcombe@example.net", 50, 8.8), ("Illse Ashcombe", 88, 18.3))
    for line in lines:
        line.words = [replace(w, font="Arial") for w in line.words]
    assert _name(choose_name(lines, BODY, Recognition())) == "Illse Ashcombe"


def test_a_doubled_l_read_in_the_large_name_is_kept_when_the_small_e_mail_lost_one() -> None:
    # small letters lose a stroke of "ll" more often than a large name gains one inside a
    # word; beside a capital I an extra stroke is OCR's ("Illse", above)
    lines = _page(("noor.quilfeather@example.org", 50, 8.8), ("Noor Quillfeather", 88, 18.3))
    assert _name(choose_name(lines, BODY, Recognition())) == "Noor Quillfeather"
    lines = _page(("noor.quillfeather@example.org", 50, 8.8), ("Noor Quilfeather", 88, 18.3))
    assert _name(choose_name(lines, BODY, Recognition())) == "Noor Quillfeather"


def test_a_name_field_read_with_a_small_l_for_its_capital_i_is_the_name() -> None:
    lines = _page(
        ("Curriculum Vitae", 73, 19.4),
        [("Name", 63, 113, 10.2), ("llse Kowalczyk", 120, 113, 10.2), ("Gender", 260, 113, 10.2)],
        [("City", 63, 149, 12.1), ("Dublin, Ireland", 120, 149, 12.1)],
    )
    assert _name(choose_name(lines, 10.4, Recognition())) == "Ilse Kowalczyk"
    assert capital_i("Marie la Fontaine") == "Marie la Fontaine"  # a particle stays


@pytest.mark.parametrize(
    ("row", "name"),
    [
        # the shaded Name label went unread
        ([("Maelis Valderrama", 196, 137, 9.9), ("Phone", 330, 137, 9.9)], "Maelis Valderrama"),
        # a narrow cell wrapped the label: "Nam" on the name's row, "e" under it
        ([("Nam", 82, 141, 8.4), ("Esme Dunmore", 120, 141, 8.4)], "Esme Dunmore"),
    ],
)
def test_a_name_in_a_details_grid_whose_name_label_was_not_read_is_the_name(
    row: list[tuple[str, float, float, float]], name: str
) -> None:
    lines = _page(
        ("Personal Details", 110, 12.0),
        row,
        [("Email", 89, 161, 13.3), ("ana@example.net", 196, 161, 13.3), ("city", 320, 161, 13.3)],
        [("Objective", 89, 189, 10.8), ("Data Engineer", 196, 189, 10.8)],
    )
    assert _name(choose_name(lines, 12.1, Recognition())) == name


def test_a_one_word_cell_or_a_place_beside_a_label_is_no_name() -> None:
    lines = _page(
        ("Personal Details", 110, 12.0),
        [("Henrik", 196, 137, 9.9), ("Phone", 300, 137, 9.9)],
        [("City", 89, 161, 13.3), ("Boulder, CO", 196, 161, 13.3)],
    )
    assert _name(choose_name(lines, 12.1, Recognition())) == ""


def test_a_headline_glued_onto_a_chinese_name_goes_to_the_next_line() -> None:
    lines = _page(("郑若曦Java", 65, 25.0), [("杭州", 287, 95, 10.1)], ("139-0000-8507", 108, 11.8))
    out = choose_name(lines, 10.6, Recognition())
    assert _name(out) == "郑若曦"
    assert [ln.text() for ln in out][:2] == ["郑若曦", "Java"]


def test_a_details_grid_row_holding_a_section_word_does_not_start_the_body() -> None:
    # "Objective" is a field of the grid, not a section title beside a sidebar: the title
    # under the grid is still a section
    # (OCR measures "Objective", with its j, taller than the row's other cells)
    lines = _page(
        [("Name", 63, 113, 10.2), ("llse Kowalczyk", 120, 113, 10.2), ("Photo", 260, 113, 10.2)],
        [("Phone", 63, 124, 11.9), ("+1 (608) 555-0134", 120, 124, 11.9)],
        [
            ("City", 63, 149, 11.0),
            ("Dublin, Ireland", 120, 149, 9.4),
            ("Objective", 260, 149, 12.1),
            ("UX Researcher", 330, 149, 8.4),
        ],
        ("Work Experience", 182, 12.7),
        ("Thistledown Bank, Austin, TX", 211, 10.1),
    )
    out = choose_name(lines, 10.4, Recognition())
    assert _name(out) == "Ilse Kowalczyk"
    roles = {ln.text(): ln.role for ln in out}
    assert roles["City Dublin, Ireland Objective UX Researcher"] == "header"
    assert roles["Work Experience"] != "header"


def test_a_name_stacked_in_capitals_beats_a_smaller_headline_that_reads_as_a_name() -> None:
    # neither "OREN" nor "ASHCOMBE" alone reads as a name; together they do, over the
    # headline "Machine Learning Engineer" set 1.3 times the body
    lines = _page(
        [("(608) 555-0172", 495, 57, 8.5)],
        ("OREN", 60, 25.5),
        [("oren.ashcombe@example.org", 435, 73, 9.0)],
        ("ASHCOMBE", 97, 25.7),
        ("Machine Learning Engineer", 138, 12.6),
    )
    assert _name(choose_name(lines, 9.4, Recognition())) == "OREN ASHCOMBE"


@pytest.mark.parametrize("text", ["Last updatedin Nov2026", "Lastupdated on 14 November 2026"])
def test_a_date_stamp_whose_spaces_ocr_dropped_is_still_a_stamp(text: str) -> None:
    assert is_date_stamp(text)


def test_a_capital_o_touching_the_next_letter_is_not_a_bullet() -> None:
    # "OREN" in 36 pt capitals: the engine's round-bullet reading of an O before a capital
    # needs the gap a bullet leaves (letters here sit 1 px apart, ink 12 px high)
    crop, centers = _line([(8, 1), (6, 1), (6, 1), (6, 1)])
    box = np.array([[0, 0], [400, 0], [400, 20], [0, 20]], dtype=np.float32)
    (line,) = make_lines(ocr_page.line_glyphs("OREN", centers, crop, box), [], 0)
    assert not line.bullet
    assert line.text() == "OREN"


def test_a_space_typed_between_two_chinese_characters_is_kept() -> None:
    # "晨阳 宋": 7 px of blank (0.58 of the ink's height) between 阳 and 宋, 1 px between
    # 晨 and 阳; the name is printed given name first, and read family name first
    crop, centers = _line([(12, 1), (12, 7), (12, 1)])
    box = np.array([[0, 0], [400, 0], [400, 20], [0, 20]], dtype=np.float32)
    (line,) = make_lines(ocr_page.line_glyphs("晨阳宋", centers, crop, box), [], 0)
    assert line.text() == "晨阳 宋"


def test_a_job_after_a_comma_in_a_chinese_name_line_read_as_one_word_is_the_headline() -> None:
    # OCR reads Chinese with no spaces: "罗明轩，数据工程师" is one word, cut at its comma
    lines = _page(("罗明轩，数据工程师", 40, 18.0), ("junjie39@example.com", 70, 9.0))
    out = choose_name(lines, BODY, Recognition())
    assert _name(out) == "罗明轩"
    assert [ln.text() for ln in out][:2] == ["罗明轩", "数据工程师"]


def test_a_side_label_read_before_the_name_is_cut_off_after_it() -> None:
    # Europass: "PERSONAL INFORMATION" level with the name, close enough for one OCR box
    lines = _page(("PERSONAL INFORMATION Marisol Ravensworth", 90, 13.0), ("Portland, OR", 110, 9))
    out = choose_name(lines, BODY, Recognition())
    assert _name(out) == "Marisol Ravensworth"
    assert [ln.text() for ln in out][:2] == ["Marisol Ravensworth", "PERSONAL INFORMATION"]


def test_a_job_title_read_in_the_names_box_is_cut_off_after_it() -> None:
    lines = _page(("Tobiah Thornquist QA Automation Engineer", 40, 18.0), ("Boston, MA", 70, 9))
    out = choose_name(lines, BODY, Recognition())
    assert _name(out) == "Tobiah Thornquist"
    assert [ln.text() for ln in out][:2] == ["Tobiah Thornquist", "QA Automation Engineer"]


def test_a_one_word_side_label_before_a_chinese_name_is_cut_off_and_a_city_is_no_name() -> None:
    # the scanned Europass: "uropass" (the logo) the largest ink, "个人信息 何若曦" one box,
    # and "武汉", two characters as a Chinese name has, only a little larger than the body
    lines = _page(
        ("uropass", 52, 17.3),
        ("个人信息 何若曦", 94, 16.4),
        [("武汉", 187, 118, 13.1)],
        [("实习经历", 141, 231, 8.4)],
    )
    out = choose_name(lines, BODY, Recognition())
    assert _name(out) == "何若曦"


def test_the_letters_of_a_logo_larger_than_the_name_are_not_the_name() -> None:
    # the "europass" logo: OCR reads "ss", its largest ink, which reads as no name
    lines = _page(("ss", 30, 30.0), ("Marisol Ravensworth", 80, 14.0), ("Portland, OR", 100, 9))
    assert _name(choose_name(lines, BODY, Recognition())) == "Marisol Ravensworth"


def test_a_name_in_one_box_with_a_section_title_is_still_a_candidate() -> None:
    # "个人信息" and "何若曦" in one detected box get one size: the title's look is the name's
    lines = _page(
        ("ropass Curriculum vitae", 51, 16.3),
        [("个人信息", 142, 94, 15.4)],
        [("何若曦", 188, 94, 15.4)],
        [("武汉", 189, 117, 10.9)],
        [("实习经历", 142, 230, 8.4)],
    )
    assert _name(choose_name(lines, BODY, Recognition())) == "何若曦"


def test_capitals_ocr_read_inside_a_name_for_small_letters_of_their_shape_are_small() -> None:
    lines = _page(("MariSol RaVenSWOrth", 40, 18.0), ("Data Engineer", 70, 10.0))
    assert _name(choose_name(lines, BODY, Recognition())) == "Marisol Ravensworth"
    kept = _page(("Aoife McCarthy DeSouza", 40, 18.0), ("Data Engineer", 70, 10.0))
    assert _name(choose_name(kept, BODY, Recognition())) == "Aoife McCarthy DeSouza"


def test_large_text_no_box_touches_gets_a_box_and_an_icon_a_photo_or_a_bar_does_not() -> None:
    page = np.full((400, 600), 255, np.uint8)
    page[196:232, 20:520] = 90  # a shaded bar round the first body line (a section title)
    found = []
    for top in (200, 240, 280):  # three body lines the detector found, boxes 28 px high
        page[top + 6 : top + 22, 40:500] = 0
        found.append(np.array([[30, top], [510, top], [510, top + 28], [30, top + 28]], np.float32))
    for x in range(40, 160, 40):  # a big name the detector missed: three 40 px characters
        page[40:80, x : x + 30] = 0
        page[44:76, x + 4 : x + 26] = 255  # strokes, not a block
    page[120:140, 40:60] = 0  # an icon, as tall as a body line's ink
    page[300:390, 500:580] = 0  # a photo, far taller than a name
    *kept, box = ocr_page.whole_lines(page, found)
    assert all(a is b for a, b in zip(kept, found, strict=True))  # the boxes found: as found
    assert box[0][0] < 40 and box[0][1] < 40 and box[2][0] > 150 and box[2][1] > 80


def test_large_characters_set_wide_apart_are_found_as_one_line() -> None:
    # "马 一 鸣" in a big light font, 0.3 em apart, the middle one a flat stroke: no character
    # alone is a line (two are taller than wide, one is as flat as body text)
    page = np.full((400, 600), 255, np.uint8)
    found = []
    for top in (200, 240, 280):
        page[top + 6 : top + 22, 40:500] = 0
        found.append(np.array([[30, top], [510, top], [510, top + 28], [30, top + 28]], np.float32))
    page[40:90, 40:84] = 0
    page[44:86, 44:80] = 255  # a 44 × 50 character
    page[62:70, 100:150] = 0  # "一": 50 × 8
    page[40:90, 166:210] = 0
    page[44:86, 170:206] = 255
    *_, box = ocr_page.whole_lines(page, found)
    assert box[0][0] < 40 and box[2][0] > 210 and box[0][1] < 40 and box[2][1] > 90


def test_a_box_that_stops_short_of_its_large_line_is_widened_over_the_rest_of_it() -> None:
    page = np.full((400, 600), 255, np.uint8)
    found = []
    for top in (200, 240, 280):  # three body lines, boxes 28 px high
        page[top + 6 : top + 22, 40:500] = 0
        found.append(np.array([[30, top], [510, top], [510, top + 28], [30, top + 28]], np.float32))
    for x in range(40, 160, 40):  # a big name of three 40 px characters, 10 px apart
        page[40:80, x : x + 30] = 0
        page[44:76, x + 4 : x + 26] = 255
    # the detector's box holds the last two characters only (a thin first one left out)
    short = np.array([[76, 30], [166, 30], [166, 90], [76, 90]], np.float32)
    boxes = ocr_page.whole_lines(page, [short, *found])
    assert len(boxes) == 4 and all(a is b for a, b in zip(boxes[1:], found, strict=True))
    assert boxes[0][0][0] < 40 and boxes[0][2][0] >= 166  # the first character is in it
    assert boxes[0][0][1] == 30 and boxes[0][2][1] == 90  # as high as the detector drew it


def test_a_box_round_the_flat_middle_character_of_a_large_line_grows_to_the_whole_line() -> None:
    # "徐一鸣" in big bold: the detector boxed the flat "一" alone, half the line's height
    page = np.full((400, 600), 255, np.uint8)
    found = []
    for top in (200, 240, 280):  # three body lines, boxes 28 px high
        page[top + 6 : top + 22, 40:500] = 0
        found.append(np.array([[30, top], [510, top], [510, top + 28], [30, top + 28]], np.float32))
    for x in (40, 140):  # the two tall characters, 80 px high
        page[30:110, x : x + 70] = 0
        page[36:104, x + 6 : x + 64] = 255
    page[66:76, 116:134] = 0  # the flat one between them
    flat = np.array([[108, 55], [142, 55], [142, 87], [108, 87]], np.float32)
    boxes = ocr_page.whole_lines(page, [flat, *found])
    assert len(boxes) == 4 and all(a is b for a, b in zip(boxes[1:], found, strict=True))
    (x0, y0), (x1, y1) = boxes[0].min(axis=0), boxes[0].max(axis=0)
    assert x0 < 40 and x1 > 210 and y0 < 30 and y1 > 110


def test_a_body_line_beside_a_photo_is_not_grown_into_it() -> None:
    page = np.full((400, 600), 255, np.uint8)
    page[206:222, 40:500] = 0  # a body line running into a photo that starts low beside it
    page[215:330, 500:590] = 0
    line = np.array([[30, 200], [510, 200], [510, 228], [30, 228]], np.float32)
    others = [
        np.array([[30, t], [480, t], [480, t + 28], [30, t + 28]], np.float32) for t in (240, 280)
    ]
    for box in others:
        page[int(box[0][1]) + 6 : int(box[0][1]) + 22, 40:470] = 0
    boxes = ocr_page.whole_lines(page, [line, *others])
    assert boxes[0] is line


@pytest.mark.parametrize(
    ("text", "share"),
    [
        ("Thornquist", 0.93),  # capitals and ascenders, and a descender
        ("Tobiah", 0.72),  # no descender
        ("EXPERIENCE", 0.72),
        ("summary", 0.71),  # x-height and a descender
        ("none", 0.5),
        ("教育背景", 0.9),
    ],
)
def test_a_lines_size_is_its_ink_height_over_the_share_of_an_em_its_letters_span(
    text: str, share: float
) -> None:
    assert ink_share(text) == pytest.approx(share)


def test_a_stacked_name_whose_first_line_has_no_descender_is_one_name() -> None:
    # 20 pt "Tobiah" over 20 pt "Thornquist": their ink is 14.4 and 18.6 pt tall, more than a
    # quarter apart, but as ems (0.72 and 0.93 of one) they are one size
    lines = _page(("Tobiah", 72, 14.4), ("Thornquist", 92, 18.6), ("Mobile Developer", 125, 9.3))
    assert _name(choose_name(lines, BODY, Recognition())) == "Tobiah Thornquist"


@pytest.mark.parametrize(
    ("name", "choices", "read"),
    [
        ("失书瑶", [["朱", "矢"], [], []], "朱书瑶"),  # 失 is no family name; 朱 is
        ("王梓管", [[], [], ["萱", "营"]], "王梓萱"),  # nor 管 a given name's character
        ("宋语媽", [[], [], ["嫣"]], "宋语嫣"),
        ("姓名：谢了涵", [[]] * 3 + [[], ["子", "予"], []], "姓名：谢子涵"),  # after its label
        ("欧阳明了", [[], [], [], ["亮"]], "欧阳明亮"),  # a two-character family name
        ("失书瑶", [[], [], []], "失书瑶"),  # the recognizer was sure: nothing to choose
        ("王梓萱", [[], ["粹"], ["管"]], "王梓萱"),  # already a name: kept as read
        ("教育背景", [["赵"], ["明"], [], []], "教育背景"),  # a title no choice makes a name
        ("王梓管", [[], []], "王梓管"),  # choices that do not match the line
    ],
)
def test_a_chinese_name_takes_the_recognizers_next_choice_that_names_are_written_with(
    name: str, choices: list[list[str]], read: str
) -> None:
    assert chinese_name_as_written(name, choices) == read


@pytest.mark.parametrize(
    ("name", "plausible"),
    [
        ("朱书瑶", True),
        ("欧阳明", True),
        ("张伟", True),
        ("王 梓萱", True),
        ("刘建国", True),
        ("失书瑶", False),
        ("谢了涵", False),
        ("教育背景", False),
        ("工作经历", False),
        ("北京", False),
        ("Ana Ruiz", False),
    ],
)
def test_a_chinese_name_is_a_family_name_then_characters_given_names_are_made_of(
    name: str, plausible: bool
) -> None:
    assert zh_names.plausible(name) is plausible


def test_the_other_choices_are_those_of_characters_the_recognizer_was_unsure_of() -> None:
    decode = SimpleNamespace(
        character=["blank", "失", "朱", "矢", "书"],
        scores=np.array(
            [[[0.0, 0.67, 0.15, 0.11, 0.07], [0.0, 0.0, 0.0, 0.0, 1.0], [0.9, 0.0, 0.0, 0.0, 0.1]]]
        ),
    )
    engine = SimpleNamespace(text_rec=SimpleNamespace(postprocess_op=decode))
    assert ocr_page.other_choices(engine, [0, 1]) == [["朱", "矢", "书"], []]


@pytest.mark.slow
@pytest.mark.parametrize(
    ("name", "dpi"),
    [
        ("jsonresume-even/en-01", 150),  # a subtitle with descenders under the name
        ("chromium-canva/en-01", 150),  # "OREN" / "HALLORAN" stacked, contact lines level with it
        ("chromium-canva/zh-01", 150),  # "晨阳 宋" printed given name first
        ("rendercv-last-updated/en-01", 150),  # "Last updatedin Nov2026" over a small name
        ("jsonresume-actual/en-02", 150),  # "Tobiah" over "Thornquist": ink 0.72, 0.93 of an em
        ("jsonresume-onepage/en-01", 150),  # "Anouk Ravensworth, UX Researcher" on one line
        ("latex-paracol/zh-02", 150),  # "李一鸣", in big bold Chinese: the detector misses it
        ("latex-europasscv/en-01", 150),  # the "europass" logo; "PERSONAL INFORMATION" beside
        ("jsonresume-even/zh-02", 300),  # 朱书瑶 read "失书瑶", 朱 its next choice
        ("latex-moderncv-fancy/zh-01", 300),  # 谢子涵 read "谢了涵"
    ],
)
def test_a_scanned_page_of_these_shapes_reads_its_name(name: str, dpi: int) -> None:
    pytest.importorskip("rapidocr_onnxruntime", reason="the ocr extra (in the test extra)")
    sys.path.insert(0, str(ROOT / "bench"))
    from ocr_accuracy import image_only_pdf

    truth = json.loads((CORPUS / f"{name}.truth.json").read_text(encoding="utf-8"))
    scan = image_only_pdf((CORPUS / f"{name}.pdf").read_bytes(), dpi=dpi, pages=1)
    markdown = import_bytes(scan, "scan.pdf", ".pdf").markdown
    heading = next(ln for ln in markdown.splitlines() if ln.startswith("# "))
    assert heading[2:].replace(" ", "").casefold() == truth["name"].replace(" ", "").casefold()
