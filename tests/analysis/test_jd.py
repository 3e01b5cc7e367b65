"""JD keyword extraction and resume coverage: symbol-aware, alias-aware, English and Chinese."""

from __future__ import annotations

from pathlib import Path

import pytest

from cvagent_cli.analysis.jd import MAX_KEYWORDS, JobDescription
from cvagent_cli.document.document import ResumeDocument

SAMPLES = Path(__file__).resolve().parents[2] / "sample_resumes"

JD = """# Backend Engineer

## About us

We are a fintech in Seattle running 300 services.

## Requirements

- 5+ years with C++ or C# (.NET), and Node.js services
- Strong Go and Python; Postgres and k8s in production
- CI/CD pipelines, gRPC and REST APIs, A/B testing
- Experience with Snowpipe and Protocol Buffers

## Nice to have

- Rust, Terraform and React experience is a plus
"""


def keywords(text: str) -> list[str]:
    return JobDescription.from_text(text, "jd.md").keywords


def covered(jd_text: str, resume_text: str) -> dict[str, list[str]]:
    coverage = JobDescription.from_text(jd_text, "jd.md").coverage(
        ResumeDocument.from_text(resume_text)
    )
    return {hit.keyword: hit.sections for hit in coverage.matched}


def test_extraction_keeps_symbol_forms_and_canonical_names() -> None:
    found = keywords(JD)
    for term in [
        "C++",
        "C#",
        ".NET",
        "Node.js",
        "Go",
        "Python",
        "PostgreSQL",
        "Kubernetes",
        "CI/CD",
        "gRPC",
        "REST",
        "A/B testing",
        "Protocol Buffers",
        "Snowpipe",
    ]:
        assert term in found, term
    assert "C" not in found and "CI" not in found and "CD" not in found and "NET" not in found


def test_required_ranks_before_nice_to_have() -> None:
    found = keywords(JD)
    assert found.index("Go") < found.index("Rust") and found.index("C++") < found.index("Terraform")
    assert set(found[-3:]) == {"Rust", "Terraform", "React"}
    assert "Seattle" not in found  # "About us" contributes lexicon terms only, no guessed tokens


def test_nice_to_have_clause_inside_a_requirement_line() -> None:
    found = JobDescription.from_text(
        "## 任职要求\n\n1. 熟悉 Vue，有 Vue 3 项目经验者优先；\n2. 有 Webpack 插件经验者优先\n",
        "jd",
    ).keyword_details
    tiers = {k.name: k.tier for k in found}
    assert tiers["Vue"] < tiers["Webpack"]  # "熟悉 Vue" is required; only the 优先 clause is a plus


def test_at_most_40_keywords() -> None:
    many = "## Requirements\n\n" + "".join(
        f"- Experience with Toolname{chr(65 + i // 26)}{chr(65 + i % 26)}x\n" for i in range(80)
    )
    assert len(keywords(many)) == MAX_KEYWORDS


@pytest.mark.parametrize(
    ("resume_line", "expected"),
    [
        ("Built services in Go and Python.", True),
        ("Wrote a golang SDK.", True),
        ("Ongoing work, going well.", False),
        ("Worked at Google on search.", False),
        ("Owned go-to-market for 3 launches.", False),
        ("Let's go build it.", False),  # lower-case "go" is the verb
    ],
)
def test_go_is_not_going_or_google(resume_line: str, expected: bool) -> None:
    assert (
        "Go"
        in covered("## Requirements\n\n- Go\n", f"# Jane\n\n## Experience\n\n- {resume_line}\n")
    ) is expected


@pytest.mark.parametrize(
    ("term", "resume_line", "expected"),
    [
        ("C", "Wrote firmware in C and Python.", True),
        ("C", "Wrote services in C++ and Rust.", False),
        ("C", "Wrote services in C# only.", False),
        ("C", "Presented to C-level executives.", False),
        ("C", "Maintained the Objective-C app.", False),
        ("C++", "Optimized a C++ module.", True),
        ("C++", "Wrote firmware in C.", False),
        ("C#", "Built a C# service on .NET.", True),
        ("Java", "Built a Java service.", True),
        ("Java", "Built a JavaScript SPA.", False),
        ("JavaScript", "Built a JS widget.", True),
        ("React", "Moved the site to React.js.", True),
        ("React", "Built ReactJS components.", True),
        ("Node.js", "Wrote a Node.js BFF.", True),
        ("Node.js", "Wrote a NodeJS BFF.", True),
        ("Kubernetes", "Migrated 14 services to k8s.", True),
        ("k8s", "Migrated 14 services to Kubernetes.", True),
        ("Postgres", "Partitioned a PostgreSQL table.", True),
        ("golang", "Built a Go library.", True),
        ("CI/CD", "Set up CI/CD with GitHub Actions.", True),
        (".NET", "Ported the ASP.NET site.", True),
        ("R", "Daniel R. Okafor led R&D.", False),
        ("R", "Modelled churn in R and Python.", True),
    ],
)
def test_symbol_aware_whole_word_matching(term: str, resume_line: str, expected: bool) -> None:
    jd_text = f"## Requirements\n\n- {term}\n"
    names = keywords(jd_text)
    assert len(names) == 1
    assert (
        names[0] in covered(jd_text, f"# Jane\n\n## Experience\n\n- {resume_line}\n")
    ) is expected


def test_aliases_collapse_to_one_keyword() -> None:
    found = keywords(
        "## Requirements\n\n- k8s and Kubernetes\n- JS / JavaScript\n- Postgres or PostgreSQL\n- golang (Go)\n"
    )
    assert sorted(found) == ["Go", "JavaScript", "Kubernetes", "PostgreSQL"]


def test_chinese_terms_match_as_substrings() -> None:
    jd_text = "## 任职要求\n\n1. 有性能优化与微前端落地经验；\n2. 熟悉高并发、分布式系统；\n3. 有小程序开发经验者优先\n"
    found = keywords(jd_text)
    assert {"性能优化", "微前端", "高并发", "分布式", "小程序"} <= set(found)
    hits = covered(
        jd_text,
        "# 张三\n\n## 工作经历\n\n- 主导首屏性能优化专项，LCP 降低 50%\n- 负责微信小程序商城开发\n\n## 专业技能\n\n- 微前端（qiankun）\n",
    )
    assert hits == {"性能优化": ["工作经历"], "微前端": ["专业技能"], "小程序": ["工作经历"]}


def test_coverage_math_and_section_ids() -> None:
    jd = JobDescription.from_text(
        "## Requirements\n\n- Python\n- Kafka\n- Terraform\n- Rust\n", "jd.md"
    )
    doc = ResumeDocument.from_text(
        "# Jane\n\n## Experience\n\n### A\n\n- Built Kafka consumers in Python\n\n## Skills\n\n- Python, Terraform\n"
    )
    coverage = jd.coverage(doc)
    assert coverage.source == "jd.md"
    assert coverage.keywords == ["Python", "Kafka", "Terraform", "Rust"]
    assert {h.keyword: h.sections for h in coverage.matched} == {
        "Python": ["experience/a", "skills"],
        "Kafka": ["experience/a"],
        "Terraform": ["skills"],
    }
    assert coverage.missing == ["Rust"] and coverage.coverage == 75.0


def test_empty_jd() -> None:
    coverage = JobDescription.from_text("", "empty").coverage(ResumeDocument.from_text("# Jane\n"))
    assert coverage.keywords == [] and coverage.coverage == 0.0


def test_sample_pairs() -> None:
    en = JobDescription.from_path(SAMPLES / "jobs/en_backend.md")
    assert en.keywords[:8] == [
        "Kubernetes",
        "Python",
        "Go",
        "Kafka",
        "PostgreSQL",
        "gRPC",
        "CI/CD",
        "AWS",
    ]
    strong = en.coverage(ResumeDocument.from_path(SAMPLES / "en_senior_backend.md"))
    weak = en.coverage(ResumeDocument.from_path(SAMPLES / "en_weak_generalist.md"))
    assert strong.coverage >= 80 and "Node.js" in strong.missing and weak.coverage < 20
    zh = JobDescription.from_path(SAMPLES / "jobs/zh_frontend.md")
    assert {
        "React",
        "TypeScript",
        "Vue",
        "Webpack",
        "性能优化",
        "微前端",
        "Node.js",
        "小程序",
    } <= set(zh.keywords)
    assert "C" not in zh.keywords  # "C 端业务" is not the C language
    assert zh.coverage(ResumeDocument.from_path(SAMPLES / "zh_senior_frontend.md")).coverage >= 60
