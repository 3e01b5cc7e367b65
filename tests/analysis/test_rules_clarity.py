"""Clarity rules: length, pronouns, passive voice, clichés, repeated openers, mixed tenses."""

from __future__ import annotations

import re
from datetime import date

import pytest

from cvagent_cli import languages
from cvagent_cli.analysis.rules import build_context, clarity
from cvagent_cli.analysis.rules.clarity import past_form
from cvagent_cli.document.document import ResumeDocument

TODAY = date(2025, 6, 1)
ENGLISH_VERBS = languages.get("en").wording.verbs
EN_HEAD = "# Jane Doe\n\n## Experience\n\n### Engineer — Acme\nJan 2020 – Present\n\n"
ZH_HEAD = "# 张三\n\n## 工作经历\n\n### 某科技公司 — 工程师\n2020.01 - 至今\n\n"


def run(text: str) -> list:
    return clarity.check(build_context(ResumeDocument.from_text(text), TODAY))


def rules_for(bullet: str, zh: bool = False) -> set[str]:
    return {f.rule_id for f in run((ZH_HEAD if zh else EN_HEAD) + f"- {bullet}\n")}


LONG_EN = "Led " + " ".join(["the"] * 40) + " migration."
LONG_ZH = "主导" + "商城主站重构与性能优化" * 9 + "。"


@pytest.mark.parametrize(
    ("bullet", "zh", "rule"),
    [
        (LONG_EN, False, "clarity.too-long"),
        ("Filing.", False, "clarity.too-short"),
        ("Managing vendor relationships.", False, "clarity.too-short"),
        (LONG_ZH, True, "clarity.too-long"),
        ("参与用户调研。", True, "clarity.too-short"),
    ],
)
def test_length_positive(bullet: str, zh: bool, rule: str) -> None:
    assert rule in rules_for(bullet, zh)


@pytest.mark.parametrize(
    ("bullet", "zh"),
    [
        ("Built a Tableau dashboard used weekly by 45 managers.", False),
        ("Cut costs by 38%.", False),  # 4 words: the minimum
        ("Tech: Go", False),  # labels are not judged by length
        ("主导商城主站重构，首屏加载时间从 3.8 秒降至 1.2 秒。", True),
        ("协助组织线下活动。", True),  # exactly 8 characters with the full stop
    ],
)
def test_length_negative(bullet: str, zh: bool) -> None:
    assert not {"clarity.too-long", "clarity.too-short"} & rules_for(bullet, zh)


def test_length_only_in_experience_and_projects() -> None:
    text = "# Jane\n\n## Skills\n\n- Go\n- Python\n"
    assert run(text) == []


@pytest.mark.parametrize(
    ("bullet", "zh", "severity"),
    [
        ("I worked on the new onboarding binders for 30 hires.", False, "warning"),
        ("Escalations were handled by me when the lead was out.", False, "warning"),
        ("Grew my territory by 20% in one year.", False, "warning"),
        ("We shipped the billing rewrite in 3 months.", False, "info"),
        ("我负责和快递公司对接。", True, "warning"),
        ("本人主导了 3 场大促活动。", True, "warning"),
    ],
)
def test_first_person_positive(bullet: str, zh: bool, severity: str) -> None:
    findings = [
        f
        for f in run((ZH_HEAD if zh else EN_HEAD) + f"- {bullet}\n")
        if f.rule_id == "clarity.first-person"
    ]
    assert [f.severity for f in findings] == [severity]


@pytest.mark.parametrize(
    ("bullet", "zh"),
    [
        ("Tuned I/O scheduling on 40 database hosts.", False),
        ("Shipped the iOS app to 45,000 users.", False),
        ("Led the SOC 2 Type II audit across 4 teams.", False),
        ("Improved time-to-merge by 30% for the team.", False),
        ("培养团队自我驱动意识，组织 12 次技术分享。", True),
    ],
)
def test_first_person_negative(bullet: str, zh: bool) -> None:
    assert "clarity.first-person" not in rules_for(bullet, zh)


def test_first_person_outside_work_sections_is_info_and_headings_are_ignored() -> None:
    text = "# Jane Doe\n\n## About Me\n\nProduct manager; I write crisp specs.\n\n## 自我评价\n\n本人性格开朗。\n"
    findings = [f for f in run(text) if f.rule_id == "clarity.first-person"]
    assert [(f.line, f.severity) for f in findings] == [(5, "info"), (9, "info")]


@pytest.mark.parametrize(
    ("bullet", "expected"),
    [
        ("Visitors were greeted and signed in by me.", True),
        ("The ledger was built on Kafka by a team of 6.", True),
        ("Was tasked with updating 40 articles.", True),
        ("Built a ledger on Kafka for 40M transactions.", False),
        ("Was based in Seattle for 3 years.", False),  # adjective, not a passive
        ("Is interested in 2 new markets.", False),
    ],
)
def test_passive_voice(bullet: str, expected: bool) -> None:
    assert ("clarity.passive-voice" in rules_for(bullet)) is expected


def test_passive_voice_not_checked_in_chinese() -> None:
    assert "clarity.passive-voice" not in rules_for("系统被重构，性能提升 30%。", zh=True)


@pytest.mark.parametrize(
    ("text", "words"),
    [
        (
            "Hard-working, results-driven team player and fast learner.",
            ["Hard-working", "results-driven", "team player", "fast learner"],
        ),
        (
            "A self-starter who thinks outside the box with a proven track record.",
            ["self-starter", "thinks outside the box", "proven track record"],
        ),
        (
            "Passionate and detail-oriented go-getter.",
            ["Passionate", "detail-oriented", "go-getter"],
        ),
        (
            "本人性格开朗，吃苦耐劳，积极主动，具有良好的团队合作精神，抗压能力强。",
            ["性格开朗", "吃苦耐劳", "积极主动", "团队合作精神", "抗压能力强"],
        ),
    ],
)
def test_buzzwords_positive(text: str, words: list[str]) -> None:
    findings = [
        f for f in run(f"# Jane\n\n## Summary\n\n{text}\n") if f.rule_id == "clarity.buzzword"
    ]
    assert len(findings) == 1, "one finding per line names every cliché on it"
    assert re.findall(r'"(.+?)"', findings[0].message) == words


@pytest.mark.parametrize(
    "text",
    [
        "Implemented dynamic programming solutions for 40 routing problems.",
        "Led a team of 6 and mentored 9 engineers.",
        "主导 3 个核心项目，团队规模 8 人，沟通跨部门需求。",
    ],
)
def test_buzzwords_negative(text: str) -> None:
    assert "clarity.buzzword" not in {f.rule_id for f in run(f"# Jane\n\n## Summary\n\n{text}\n")}


@pytest.mark.parametrize(
    ("triggers", "pattern"),
    [
        (language.wording.buzzword_triggers, pattern)
        for language in languages.every()
        if language.wording.buzzword_triggers
        for pattern in language.wording.buzzwords
    ],
)
def test_every_buzzword_has_a_trigger(triggers: tuple[str, ...], pattern: str) -> None:
    # The fast pre-check must never hide a buzzword: each pattern contains a trigger.
    plain = re.sub(r"\[- \]\??|\(\?:|\)\??|\?|\[- \]|\(\?! programming\)|\|", " ", pattern).lower()
    assert any(
        trigger.replace("-", " ") in plain.replace("-", " ") or trigger in pattern
        for trigger in triggers
    ), pattern


def test_repeated_opener_en_counts_lemmas() -> None:
    bullets = "- Built A for 1 team\n- Builds B for 2 teams\n- Building C for 3 teams\n- Led D for 4 teams\n"
    findings = [f for f in run(EN_HEAD + bullets) if f.rule_id == "clarity.repeated-opener"]
    assert len(findings) == 1 and "build" in findings[0].message and findings[0].line == 10


def test_repeated_opener_zh_and_two_is_fine() -> None:
    zh = [
        f
        for f in run(ZH_HEAD + "- 负责 A 模块\n- 我负责 B 模块\n- 负责 C 模块\n")
        if f.rule_id == "clarity.repeated-opener"
    ]
    assert len(zh) == 1 and "负责" in zh[0].message
    assert not [
        f
        for f in run(EN_HEAD + "- Built A for 1 team\n- Built B for 2 teams\n")
        if f.rule_id == "clarity.repeated-opener"
    ]


PAST_ROLE = "# Jane\n\n## Experience\n\n### Engineer — Acme\nJan 2018 – Dec 2019\n\n"


@pytest.mark.parametrize(
    ("bullets", "expected"),
    [
        ("- Led the team of 5\n- Lead the weekly review for 9 people\n", True),
        ("- Opened the store on 52 weekends\n- Managing 4 vendor relationships\n", True),
        ("- Led the team of 5\n- Built the pipeline for 9 teams\n", False),
        (
            "- Lead the team of 5\n- Build the pipeline for 9 teams\n",
            False,
        ),  # consistent, if present
        ("- Cut costs by 10%\n- Lead the team of 5\n", False),  # "Cut" says nothing about tense
        # an -ing word with no object names a task, it is no present tense
        ("- Answered 60 calls a day.\n- Filing.\n", False),
        ("- Answered 60 calls a day.\n- **Filing**\n", False),
        ("- Answered 60 calls a day.\n- Scheduling, filing and data entry\n", False),
        ("- Answered 60 calls a day.\n- Scheduling and filing for 3 doctors\n", False),
        ("- Answered 60 calls a day.\n- Filing invoices for 3 doctors\n", True),
    ],
)
def test_mixed_tense_in_past_role(bullets: str, expected: bool) -> None:
    assert ("clarity.mixed-tense" in {f.rule_id for f in run(PAST_ROLE + bullets)}) is expected


def test_mixed_tense_allowed_in_current_role_and_ignored_in_chinese() -> None:
    assert "clarity.mixed-tense" not in rules_for("Led the team of 5") | {
        f.rule_id for f in run(EN_HEAD + "- Led X for 5\n- Own Y for 9 teams\n")
    }
    assert "clarity.mixed-tense" not in {
        f.rule_id for f in run(ZH_HEAD.replace("至今", "2021.01") + "- 主导 A\n- 负责 B\n")
    }


def test_mixed_tense_suggestion_gives_the_past_form() -> None:
    finding = next(
        f
        for f in run(PAST_ROLE + "- Opened the store on 52 weekends\n- Managing 4 vendors\n")
        if f.rule_id == "clarity.mixed-tense"
    )
    assert '"Managing" → "Managed"' in finding.suggestion and finding.line == 9


@pytest.mark.parametrize(
    ("word", "past"),
    [
        ("Lead", "Led"),
        ("Managing", "Managed"),
        ("builds", "built"),
        ("Ship", "Shipped"),
        ("apply", "applied"),
    ],
)
def test_past_form(word: str, past: str) -> None:
    assert ENGLISH_VERBS is not None
    assert past_form(word, ENGLISH_VERBS) == past


def test_buzzwords_are_lower_case_ascii() -> None:
    # _buzzwords matches an ASCII bullet's lower-cased text with the case-sensitive pattern.
    for language in languages.every():
        if language.spaced:
            words = language.wording.buzzwords
            assert all(word.isascii() and word == word.lower() for word in words)


def test_buzzwords_keep_the_bullets_own_case() -> None:
    doc = ResumeDocument.from_text(
        "# Jane Doe\n\n## Experience\n\n- Team Player and RESULTS-DRIVEN leader of a team\n"
        "- Détail: a Team-Player, results driven\n"
    )
    messages = [f.message for f in clarity.check(build_context(doc, date(2025, 6, 1)))]
    assert any('"Team Player", "RESULTS-DRIVEN"' in m for m in messages)
    assert any('"Team-Player", "results driven"' in m for m in messages)


def _clarity(bullet: str) -> list:
    head = "# Jane Doe\n\njane@example.com\n\n## Experience\n\n### Clerk — Acme\nJan 2020 – Present\n\n"
    doc = ResumeDocument.from_text(head + f"- {bullet}\n")
    return clarity.check(build_context(doc, date(2025, 6, 1)))


def test_the_first_person_fix_really_drops_the_pronoun() -> None:
    (finding,) = [
        f
        for f in _clarity("Visitors were greeted and signed in by me.")
        if f.rule_id == "clarity.first-person"
    ]
    assert '"Greeted and signed in visitors"' in finding.suggestion


def test_passive_voice_shows_the_users_sentence_made_active() -> None:
    (finding,) = [
        f
        for f in _clarity("Escalations were handled by me when the team lead was out.")
        if f.rule_id == "clarity.passive-voice"
    ]
    assert '"Handled escalations when the team lead was out"' in finding.suggestion


def test_an_outcome_for_others_is_not_passive_voice() -> None:
    findings = _clarity("Mentored 9 engineers; 4 were promoted to senior within 3 years.")
    assert not [f for f in findings if f.rule_id == "clarity.passive-voice"]


def test_a_one_word_bullet_is_one_word() -> None:
    (finding,) = [f for f in _clarity("Filing.") if f.rule_id == "clarity.too-short"]
    assert "only 1 word;" in finding.message
