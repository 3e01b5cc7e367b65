"""The truthfulness guard: facts in an edit that neither the resume nor the user gave."""

from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from cvagent_cli.truth import FactFlag, check_edit

EN_RESUME = """# Jane Doe
jane@example.com | +1 (415) 555-0100 | github.com/jane

## Summary
Backend engineer with 6 years of experience building distributed systems in Go and Python.

## Work Experience
### Staff Engineer — Acme Robotics
*2019.03 - 2021.06 · San Francisco*
- Designed the payments ledger service handling 1.2M transactions per day.
- Cut p99 latency from 800ms to 200ms by introducing a Redis cache.
- Mentored 4 engineers; led the migration from Python 2.7 to Python 3.11.

### Software Engineer — Beta Labs
*Jun 2016 – Feb 2019*
- Built inventory APIs used by 10,000+ merchants.
- Improved test coverage from 45% to 80%.

## Education
B.S. Computer Science, University of Waterloo, 2012 – 2016
"""

ZH_RESUME = """# 李四
## 工作经历
### 北京某某网络有限公司 | 技术负责人 | 2019.03 - 2021.06
- 负责订单系统架构设计，支撑日均500万订单
- 带领8人团队，将接口延迟降低了60%
- 推动服务容器化，部署效率提升3倍
### 腾讯 | 后端开发工程师 | 2016年7月 - 2019年2月
- 参与微信支付对账系统开发
## 教育经历
浙江大学 计算机科学与技术 本科 2012 - 2016
"""


def flags_for(
    new: str, resume: str, messages: list[str] | None = None, old: str = ""
) -> list[FactFlag]:
    return check_edit(new, resume_text=resume, user_messages=messages or [], old_text=old)


def values(flags: list[FactFlag]) -> list[tuple[str, str]]:
    return [(f.kind, f.value) for f in flags]


# --- new facts are flagged; the same facts said by the user are not ------------------------

NEW_FACTS = [
    # (resume, new text, kind, value, a user message that supports it)
    (ZH_RESUME, "- 转化率提升了40%", "percentage", "40%", "我们把转化率提升了40%"),
    (ZH_RESUME, "- 转化率提升了40%", "percentage", "40%", "转化率提升了百分之四十"),
    (ZH_RESUME, "- 带领10人团队完成重构", "number", "10人", "我带过10个人的团队"),
    (ZH_RESUME, "- 带领十人团队完成重构", "number", "十人", "团队有10人"),
    (ZH_RESUME, "- 在该岗位工作两年", "number", "两年", "我在那里干了2年"),
    (ZH_RESUME, "- 查询性能提升5倍", "number", "5倍", "查询快了五倍"),
    (ZH_RESUME, "- 日活100万", "number", "100万", "日活大概一百万"),
    (ZH_RESUME, "- 年营收800万元", "amount", "800万元", "营收有800万"),
    (
        ZH_RESUME,
        "在字节跳动科技有限公司担任后端开发工程师",
        "organization",
        "字节跳动科技有限公司",
        "我其实也在字节跳动干过",
    ),
    (
        ZH_RESUME,
        "### 北京某某网络有限公司 | 技术总监",
        "title",
        "技术总监",
        "我现在的职位是技术总监",
    ),
    (EN_RESUME, "- Grew conversion by 40%.", "percentage", "40%", "We grew conversion 40 percent"),
    (
        EN_RESUME,
        "- Led 12 engineers across two teams.",
        "number",
        "12 engineers",
        "I managed twelve people",
    ),
    (
        EN_RESUME,
        "- Delivered a 3x throughput improvement.",
        "number",
        "3x",
        "throughput went up 3 times",
    ),
    (EN_RESUME, "- Owned a $2M cloud budget.", "amount", "$2M", "my budget was 2 million dollars"),
    (EN_RESUME, "- Served 1.5k QPS at peak.", "number", "1.5k QPS", "peak was about 1,500 qps"),
    (
        EN_RESUME,
        "### Staff Engineer — Google",
        "organization",
        "Google",
        "I also worked at Google for a year",
    ),
    (
        EN_RESUME,
        "- Partnered with Goldman Sachs on settlement.",
        "organization",
        "Goldman Sachs",
        "goldman sachs was our client",
    ),
    (
        EN_RESUME,
        "### Senior Staff Engineer — Acme Robotics",
        "title",
        "Senior Staff Engineer",
        "I was promoted to Senior Staff Engineer last year",
    ),
    (EN_RESUME, "*Mar 2020 - 2021.06*", "date", "Mar 2020", "I actually started in 2020.03"),
]


# A reordering or shortening of words already in the resume is never a new fact; next to
# each, an edit that slips a new name in among the same words, which must still be flagged.
REORDERINGS = [
    # (resume line, reordered edit, edit with a new name, the flagged value)
    ("- 我负责和快递公司对接。\n", "- 对接快递公司。", "- 对接星河快递公司。", "对接星河快递公司"),
    ("- 负责与合作大学的招聘对接\n", "- 对接合作大学招聘", "- 对接北岭大学招聘", "对接北岭大学"),
    ("- 我主要负责跟进合作医院的数据采集\n", "- 跟进合作医院数据采集", "", ""),
    ("- 负责和供应商、物流公司协调发货\n", "- 协调供应商与物流公司发货", "", ""),
    (
        "- I was responsible for liaising with courier companies.\n",
        "- Liaised with courier companies.",
        "- Liaised with Northwind Express and other courier companies.",
        "Northwind Express",
    ),
    (
        "- Worked with the Data Platform team at Acme Robotics on billing.\n",
        "- At Acme Robotics, worked on billing with the Data Platform team.",
        "- At Acme Robotics, worked on billing with the Globex Data Platform team.",
        "Globex Data Platform",
    ),
    (
        "- Helped the Customer Success Manager prepare quarterly reviews.\n",
        "- Prepared quarterly reviews with the Customer Success Manager.",
        "",
        "",
    ),
]


@pytest.mark.parametrize(
    ("resume", "reordered"), [c[:2] for c in REORDERINGS], ids=[c[1] for c in REORDERINGS]
)
def test_reordering_words_of_the_resume_is_not_flagged(resume: str, reordered: str) -> None:
    assert flags_for(reordered, resume) == []


@pytest.mark.parametrize(
    ("resume", "new", "value"),
    [(c[0], c[2], c[3]) for c in REORDERINGS if c[2]],
    ids=[c[2] for c in REORDERINGS if c[2]],
)
def test_new_name_among_reordered_words_is_flagged(resume: str, new: str, value: str) -> None:
    assert ("organization", value) in values(flags_for(new, resume))


def test_a_city_of_the_resume_does_not_make_a_new_university_supported() -> None:
    flags = flags_for("- 毕业于北京大学", "- 浙江大学 本科\n- 现居北京\n")
    assert ("organization", "北京大学") in values(flags)


@pytest.mark.parametrize(
    ("resume", "new", "kind", "value", "message"), NEW_FACTS, ids=[c[1] for c in NEW_FACTS]
)
def test_new_fact_is_flagged(resume: str, new: str, kind: str, value: str, message: str) -> None:
    flags = flags_for(new, resume)
    assert (kind, value) in values(flags), values(flags)
    flag = next(f for f in flags if f.value == value)
    assert value in flag.message and "is it true?" in flag.message


@pytest.mark.parametrize(
    ("resume", "new", "kind", "value", "message"), NEW_FACTS, ids=[c[1] for c in NEW_FACTS]
)
def test_fact_said_by_the_user_is_not_flagged(
    resume: str, new: str, kind: str, value: str, message: str
) -> None:
    flags = flags_for(new, resume, ["unrelated first message", message])
    assert (kind, value) not in values(flags), values(flags)


def test_message_text_for_a_chinese_value_is_quoted_as_is() -> None:
    (flag,) = flags_for("- 转化率提升了40%", ZH_RESUME)
    assert flag == FactFlag(
        "percentage", "40%", "40% appears nowhere in your resume or messages — is it true?"
    )
    (flag,) = flags_for("担任技术总监", ZH_RESUME)
    assert flag.kind == "title" and flag.value == "技术总监" and "“技术总监”" in flag.message


def test_full_width_digits_are_normalised_but_shown_as_written() -> None:
    assert flags_for("- 接口延迟降低了６０％", ZH_RESUME) == []
    (flag,) = flags_for("- 转化率提升了４０％", ZH_RESUME)
    assert (flag.kind, flag.value) == ("percentage", "４０％")


# --- dates -------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("resume", "old", "new", "flagged"),
    [
        (
            EN_RESUME,
            "*2019.03 - 2021.06 · San Francisco*",
            "*2018.03 - 2021.06 · San Francisco*",
            "2018.03",
        ),
        (
            EN_RESUME,
            "*2019.03 - 2021.06 · San Francisco*",
            "*2019.03 - 2022.01 · San Francisco*",
            "2022.01",
        ),
        (EN_RESUME, "*Jun 2016 – Feb 2019*", "*Jun 2015 – Feb 2019*", "Jun 2015"),
        (ZH_RESUME, "2016年7月 - 2019年2月", "2016年7月 - 2020年2月", "2020年2月"),
        (ZH_RESUME, "2019.03 - 2021.06", "2018年3月 - 2021年6月", "2018年3月"),
    ],
)
def test_changed_date_range_is_flagged(resume: str, old: str, new: str, flagged: str) -> None:
    assert ("date", flagged) in values(flags_for(new, resume, old=old))


def test_changed_range_end_that_appears_elsewhere_in_the_resume_is_still_flagged() -> None:
    # 2019.02 is in the resume (the Tencent job), but stretching this job to it is new.
    old = "### 北京某某网络有限公司 | 技术负责人 | 2019.03 - 2021.06"
    new = "### 北京某某网络有限公司 | 技术负责人 | 2016.07 - 2021.06"
    flags = flags_for(new, ZH_RESUME, old=old)
    assert values(flags) == [("date", "2016.07")]
    assert "changed" in flags[0].message
    # … unless the user said so.
    assert flags_for(new, ZH_RESUME, ["其实我2016年7月就入职了"], old=old) == []


def test_range_changed_to_present_is_flagged_unless_the_user_says_so() -> None:
    old = "*2019.03 - 2021.06 · San Francisco*"
    new = "*2019.03 - Present · San Francisco*"
    assert values(flags_for(new, EN_RESUME, old=old)) == [("date", "Present")]
    assert flags_for(new, EN_RESUME, ["I still work there"], old=old) == []


@pytest.mark.parametrize(
    "new",
    [
        "*Mar 2019 – Jun 2021*",
        "2019年3月 - 2021年6月",
        "2019/03 – 2021/06",
        "03/2019 to 06/2021",
        "*Jun 2016 – Feb 2019*",
    ],
)
def test_same_dates_in_another_format_are_not_flagged(new: str) -> None:
    assert flags_for(new, EN_RESUME, old="*2019.03 - 2021.06 · San Francisco*") == []


# --- no new facts → no flags ----------------------------------------------------------------

REWORDINGS = [
    (EN_RESUME, "- Architected the payments ledger service, processing 1.2M transactions daily."),
    (EN_RESUME, "- Reduced p99 latency from 800 ms to 200 ms with a Redis caching layer."),
    (
        EN_RESUME,
        "Backend Engineer with six years of experience building distributed systems in Python and Go.",
    ),
    (EN_RESUME, "- Mentored four engineers and led the Python 2.7 → 3.11 migration."),
    (EN_RESUME, "- Built inventory APIs serving 10k+ merchants."),
    (EN_RESUME, "- Raised test coverage to 80 % (from 45 %)."),
    (EN_RESUME, "## Professional Experience\n## Key Achievements\n## Technical Skills"),
    (
        EN_RESUME,
        "- Led the payments ledger work at Acme Robotics with the Risk and Data Science teams.",
    ),
    (EN_RESUME, "B.Sc. in Computer Science from the University of Waterloo (2012–2016)"),
    (EN_RESUME, "### Software Engineer | Beta Labs | Jun 2016 – Feb 2019"),
    (EN_RESUME, "1. Built the ledger\n2. Built the cache\n3. Mentored engineers"),
    (EN_RESUME, "- Led, Built, Drove, Shipped: Designed Systems That Scale."),
    (ZH_RESUME, "- 主导订单系统的架构设计，支撑每日500万订单"),
    (ZH_RESUME, "- 带领一支8人团队，接口延迟降低60%"),
    (ZH_RESUME, "- 推动服务容器化改造，部署效率提升至原来的3倍"),
    (ZH_RESUME, "### 北京某某网络有限公司 | 技术负责人 | 2019年3月 - 2021年6月"),
    (ZH_RESUME, "在腾讯担任后端开发工程师，参与微信支付对账系统的设计与开发"),
    (ZH_RESUME, "浙江大学计算机科学与技术专业本科毕业"),
    (ZH_RESUME, "- 负责团队的技术规划，是团队的核心成员之一，十分重视代码质量，统一了一套规范"),
    (ZH_RESUME, "1、负责订单系统\n2、带领团队\n（3）推动容器化"),
]


@pytest.mark.parametrize(("resume", "new"), REWORDINGS, ids=[r[1][:40] for r in REWORDINGS])
def test_rewording_without_new_facts_is_not_flagged(resume: str, new: str) -> None:
    assert flags_for(new, resume) == []


def test_numbers_already_in_the_resume_are_not_flagged_even_when_moved() -> None:
    new = "- Improved coverage to 80% and cut latency to 200ms; 1.2M transactions/day, 10,000+ merchants, 4 mentees."
    assert flags_for(new, EN_RESUME) == []


def test_noise_that_is_not_a_fact() -> None:
    resume = "Python, Go\n"
    new = (
        "- Deployed on AWS S3 and EC2, trained on H100 GPUs with GPT-4, 5G and 3D pipelines; ranked 1st.\n"
        "- Contact: jane@example.com, https://example.com/a/123, +1 (415) 555-0100"
    )
    assert flags_for(new, resume) == []


def test_version_numbers_in_the_resume_are_not_flagged_new_ones_are() -> None:
    resume = "Upgraded to Python 3.11.4 and Django 4.2.1."
    assert flags_for("Migrated services to Python 3.11.4", resume) == []
    assert values(flags_for("Migrated services to Python 3.12.0", resume)) == [("number", "3.12.0")]


def test_number_words_and_digits_are_interchangeable() -> None:
    resume = "Led a team of three engineers for 2 years."
    assert flags_for("Led 3 engineers for two years.", resume) == []
    assert values(flags_for("Led five engineers.", resume)) == [("number", "five")]


@pytest.mark.parametrize(
    ("resume_fact", "new_fact"),
    [
        ("$2,000,000", "$2M"),
        ("2 million", "2M users"),
        ("200万", "2M users"),
        ("1,500", "1.5k"),
        ("40 percent", "40%"),
        ("三倍", "3x"),
    ],
)
def test_equivalent_number_spellings(resume_fact: str, new_fact: str) -> None:
    assert flags_for(f"Result: {new_fact}.", f"Result: {resume_fact}.") == []


def test_percentage_needs_a_percentage_and_multiplier_a_multiplier() -> None:
    resume = "Managed 40 servers and 3 teams."
    assert values(flags_for("Cut cost by 40%.", resume)) == [("percentage", "40%")]
    assert values(flags_for("3x faster builds.", resume)) == [("number", "3x")]
    assert flags_for("Managed 40 servers.", resume) == []


def test_flags_are_in_order_and_deduplicated() -> None:
    new = "Grew revenue 25% at Google; then 25% again with a $3M budget at Google."
    assert values(flags_for(new, EN_RESUME)) == [
        ("percentage", "25%"),
        ("organization", "Google"),
        ("amount", "$3M"),
    ]


def test_old_text_counts_as_support_and_empty_new_text_has_no_flags() -> None:
    assert flags_for("Grew revenue 25%.", "", old="Grew revenue by 25 percent.") == []
    assert flags_for("", EN_RESUME) == []
    assert flags_for("   \n", EN_RESUME) == []


def test_title_inflation_is_flagged_even_when_its_words_occur_apart() -> None:
    resume = "Senior Software Engineer at Acme, 2019 - 2021\nStaff Engineer at Beta, 2021 - 2023"
    assert values(flags_for("Senior Staff Engineer at Beta", resume)) == [
        ("title", "Senior Staff Engineer")
    ]
    assert flags_for("Sr. Software Engineer at Acme", resume) == []
    assert values(flags_for("worked as a principal engineer at Beta", resume)) == [
        ("title", "principal engineer")
    ]


# --- property: words taken from the resume never produce a number flag -------------------------

_FACT_TOKENS = [
    "40%", "$2M", "1.5k", "3x", "10", "12", "2019.03", "2021.06", "1,000", "3.11", "5+", "200ms", "10,000+", "45%",
    "提升了40%", "500万", "两年", "带领10人团队", "3倍", "日活100万", "百分之四十", "十人", "Mar", "Jun", "2020", "2016年7月",
    "-", "–", "|", "·", "Google", "Senior", "Engineer", "v2", "S3", "H100", "three", "twenty-one", "doubled", "翻倍",
]  # fmt: skip
_NUMBER_UNIT_WORDS = {
    "percent", "pct", "cent", "per", "times", "fold", "thousand", "million", "billion", "trillion", "mn", "bn",
    "k", "m", "b", "x", "w", "usd", "rmb", "dollars", "dollar", "yuan", "euros", "euro", "pounds", "st", "nd", "rd", "th",
}  # fmt: skip
_word = st.one_of(
    st.sampled_from(_FACT_TOKENS),
    st.from_regex(r"[a-z]{2,7}", fullmatch=True).filter(lambda w: w not in _NUMBER_UNIT_WORDS),
    st.from_regex(r"[A-Z][a-z]{1,6}", fullmatch=True).filter(
        lambda w: w.lower() not in _NUMBER_UNIT_WORDS
    ),
    st.integers(min_value=0, max_value=100_000).map(str),
    st.decimals(min_value=0, max_value=1000, places=1, allow_nan=False, allow_infinity=False).map(
        str
    ),
    st.tuples(
        st.integers(0, 999), st.sampled_from(["%", "x", "k", "M", "人", "倍", "万", "年", "ms"])
    ).map(lambda t: f"{t[0]}{t[1]}"),
    st.text(alphabet="的了在和是负责系统团队项目优化", min_size=1, max_size=5),
)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(words=st.lists(_word, min_size=1, max_size=40), data=st.data())
def test_words_from_the_resume_never_yield_number_flags(
    words: list[str], data: st.DataObject
) -> None:
    resume = " ".join(words)
    if data.draw(st.booleans(), label="slice"):
        i = data.draw(st.integers(0, len(words) - 1), label="start")
        j = data.draw(st.integers(i + 1, len(words)), label="end")
        chosen = words[i:j]
    else:
        chosen = data.draw(
            st.lists(st.sampled_from(words), min_size=1, max_size=len(words)), label="subset"
        )
        random.Random(data.draw(st.integers(0, 2**32), label="seed")).shuffle(chosen)
    new = " ".join(chosen)
    number_flags = [
        f
        for f in check_edit(new, resume_text=resume, user_messages=[])
        if f.kind in ("number", "percentage", "amount")
    ]
    assert number_flags == [], (resume, new)
