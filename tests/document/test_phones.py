"""Phones with libphonenumber: international, local and masked numbers."""

from __future__ import annotations

import pytest

from cvagent_cli.document.document import ResumeDocument
from cvagent_cli.document.phones import find_masked, find_phones, guess_regions


@pytest.mark.parametrize(
    ("header", "phone"),
    [
        ("Rabat, Morocco | (+212) 644397973", "(+212) 644397973"),
        ("Cairo, Egypt | (+20) 0122 052 2714", "(+20) 0122 052 2714"),
        ("Alexandria, Egypt | Phone: (+2) 01117024172", "(+2) 01117024172"),
        ("Tokyo, Japan · (080) 3717-4344", "(080) 3717-4344"),
        ("Bengaluru, India\n8866020042", "8866020042"),
        ("| Phone | +44 7700 900123 |", "+44 7700 900123"),
        ("电话：0755-86001234 ｜ 深圳", "0755-86001234"),
        ("手机：138 2468 1357", "138 2468 1357"),
        ("Phone: (555) 284-9031", "(555) 284-9031"),
    ],
)
def test_phone_is_found_in_its_local_or_international_format(header: str, phone: str) -> None:
    doc = ResumeDocument.from_text(f"# Ann Lee\n\n{header}\n\n## Experience\n- Built things\n")
    assert doc.basics.phone == phone


@pytest.mark.parametrize("text", ["189****9173", "电话：1xx-xxxx-xxxx", "Phone: +1 (xxx) xxx-4412"])
def test_masked_number_is_reported_as_masked_not_as_a_phone(text: str) -> None:
    doc = ResumeDocument.from_text(f"# 何东阳\n\n{text}\n\n## 工作经历\n- 负责支付\n")
    assert doc.basics.phone is None
    assert doc.basics.masked_phone


@pytest.mark.parametrize(
    "text",
    [
        "06/2021 – 02/2021",
        "2019.07 - 2023.06",
        "**20xx.xx - 20xx.xx** **大学一**",
        "Served 2,600 accounts and 40,000 monthly users",
        "Hotel 2019 – 2021",
    ],
)
def test_dates_counts_and_placeholders_are_not_phones(text: str) -> None:
    assert find_phones(text, ("US", "CN")) == []
    assert find_masked(text) is None


def test_region_comes_from_places_then_language() -> None:
    assert guess_regions("Based in Rabat, Morocco", "en")[0] == "MA"
    assert guess_regions("现居杭州", "zh")[0] == "CN"
    assert guess_regions("no place at all", "en") == ("US", "CN")


def test_a_free_text_front_matter_field_is_no_source_of_the_phone() -> None:
    doc = ResumeDocument.from_text(
        "---\nname: Hannah Cho\nnotes: call +1 555-000-9999 instead\n---\n\n"
        "Phone: +1 555-318-7702\n\n## Experience\n- x\n"
    )
    assert doc.basics.phone == "+1 555-318-7702"
