"""Organization and job-title facts, in English and Chinese."""

from __future__ import annotations

import re
from typing import Any

from cvagent_cli.script import HAN, HAN_EXT_A, IDEOGRAPHS, YIJING
from cvagent_cli.truth.facts import Fact, FactKind, consume, is_free

_CAP_WORD = r"(?:[A-Z][A-Za-z0-9'’+&-]*[A-Za-z0-9+]|[A-Z])(?:\.(?=[\s,)|]|$))?"
_CONNECTOR = r"(?:of|the|&|de|for)"
_RUN_RE = re.compile(
    rf"(?<![A-Za-z0-9])(?:{_CAP_WORD})(?:[ \t\u00a0]+(?:{_CONNECTOR}[ \t\u00a0]+)*(?:{_CAP_WORD}))*"
)
_WORD_IN_RUN_RE = re.compile(rf"{_CAP_WORD}|{_CONNECTOR}")
_CONNECTORS = {"of", "the", "&", "de", "for"}
_ABBREVIATIONS = {
    "sr",
    "jr",
    "dr",
    "mr",
    "mrs",
    "ms",
    "st",
    "mt",
    "ft",
    "no",
    "vs",
    "dept",
    "univ",
    "intl",
    "assoc",
    "bros",
}
_LEGAL = {
    "inc",
    "inc.",
    "incorporated",
    "corp",
    "corp.",
    "corporation",
    "llc",
    "l.l.c.",
    "ltd",
    "ltd.",
    "limited",
    "co",
    "co.",
    "gmbh",
    "ag",
    "plc",
    "s.a.",
    "sa",
    "pty",
    "llp",
    "lp",
}
_ROLES = {
    "engineer", "developer", "manager", "director", "architect", "scientist", "analyst", "designer", "consultant",
    "officer", "president", "intern", "lead", "head", "founder", "co-founder", "cofounder", "specialist",
    "administrator", "researcher", "programmer", "strategist", "coordinator", "fellow", "professor", "lecturer",
    "leader", "chair", "chairman", "owner", "evangelist", "advocate", "technologist", "sde", "swe",
    "cto", "ceo", "cfo", "coo", "cio", "cpo", "cmo", "vp", "svp", "evp", "avp",
}  # fmt: skip
_ACRONYM_ROLES = {
    "CTO",
    "CEO",
    "CFO",
    "COO",
    "CIO",
    "CPO",
    "CMO",
    "VP",
    "SVP",
    "EVP",
    "AVP",
    "SDE",
    "SWE",
}
_MODIFIERS = {
    "senior", "sr", "sr.", "junior", "jr", "jr.", "lead", "principal", "staff", "head", "chief", "associate",
    "assistant", "deputy", "executive", "vice", "distinguished", "general", "founding", "managing", "group",
}  # fmt: skip
_LOWER_TITLE_RE = re.compile(
    r"(?<![A-Za-z])((?:(?:senior|sr\.|junior|jr\.|lead|principal|staff|chief|head|associate|assistant|deputy|executive|vice|distinguished)\s+)+"
    r"(?:[a-z][a-z-]*\s+){0,2}?(?:engineer|developer|manager|director|architect|scientist|analyst|designer|consultant|officer|president|researcher))(?![A-Za-z])"
)
# Words that start a bullet or a sentence: never part of a name.
_LEADING = set(
    """
    a an the and or of for to in on at by with from as is are was were be i we my our your their it this that these those
    led lead leading built build building developed develop designed design drove drive ran run managed manage created
    create launched launch implemented implement improved improve increased increase reduced reduce delivered deliver
    owned own spearheaded architected migrated migrate automated automate optimized optimize established mentored
    collaborated partnered grew scaled shipped wrote authored introduced maintained supported analyzed conducted
    coordinated defined enabled executed facilitated founded headed initiated integrated oversaw pioneered
    redesigned refactored resolved streamlined transformed achieved awarded won earned received completed cut
    made set helped worked joined hired promoted served used using via also then
    """.split()
)
# Capitalised words that are no names: resume vocabulary, section titles, months, places.
_COMMON = _LEADING | set(
    """
    responsible responsibilities achievements achievement highlights highlight key selected relevant core
    experience experiences work professional employment career history summary profile objective about me contact
    education skills skill technical technologies technology tools tooling stack projects project publications
    publication awards award honors honor certifications certification certificates languages language interests
    volunteer volunteering activities leadership references additional other personal information info details
    open source contributions open-source side academic research teaching training courses coursework relevant
    team teams platform platforms product products service services system systems data infrastructure backend
    frontend front-end back-end full-stack fullstack mobile web cloud security network networking devops qa test
    testing quality reliability performance operations growth marketing sales business strategy finance design
    engineering development software hardware machine learning deep ai ml nlp computer vision science sciences
    analytics analysis internal external global regional local remote hybrid onsite present current now today
    january february march april may june july august september october november december
    jan feb mar apr jun jul aug sep sept oct nov dec monday tuesday wednesday thursday friday saturday sunday
    new next first second third last best top high low big small large fast real-time realtime scale scalable
    bachelor bachelors master masters phd ph.d. b.s. m.s. bs ms ba ma mba degree gpa major minor thesis
    english chinese mandarin cantonese japanese korean french german spanish native fluent proficient
    beijing shanghai shenzhen hangzhou guangzhou chengdu nanjing wuhan singapore london seattle tokyo usa us uk china
    markdown note notes tbd n/a etc e.g. i.e. api apis rest restful sql nosql ci cd ci/cd ui ux kpi kpis okr okrs
    sla slo etl saas paas b2b b2c sdk cli gpu cpu ios android http https grpc json yaml html css llm llms rag mvp poc
    roi crm erp seo e2e oss faq q&a hr pr prs
    """.split()
)
_FUNCTION_WORDS = {
    "that", "with", "and", "to", "in", "on", "at", "by", "from", "as", "is", "are", "was", "a", "an", "our", "your",
    "this", "these", "into", "through", "across", "over", "beyond", "without", "we", "you", "it", "not", "vs",
}  # fmt: skip
_KNOWN_ORGS = set(
    """
    Google Alphabet Microsoft Amazon Apple Meta Facebook Netflix Uber Lyft Airbnb Alibaba Tencent ByteDance
    Baidu Huawei Xiaomi Meituan Didi NetEase JD.com Oracle IBM Intel Nvidia NVIDIA AMD Qualcomm Cisco Salesforce
    Adobe Twitter LinkedIn Stripe Shopify Tesla SpaceX OpenAI Anthropic DeepMind Pinduoduo Kuaishou Samsung Sony
    Snap Pinterest Dropbox Atlassian Spotify Databricks Snowflake Palantir McKinsey Deloitte Accenture PwC KPMG
    Goldman Morgan JPMorgan Citi Citibank Barclays HSBC Walmart Instacart DoorDash Coinbase Robinhood TikTok
    """.split()
)
_ORG_CONTEXT_RE = re.compile(
    r"(?:(?<![A-Za-z])(?:at|joined|join|joining)\s+|@\s*|(?:加入|就职于|任职于|供职于|入职|效力于)\s*)$",
    re.IGNORECASE,
)
_SEPARATOR_CHARS = set("|—–·@")

_ZH_ROLES = (
    "首席技术官 首席执行官 首席运营官 首席财务官 首席产品官 首席科学家 技术官 执行官 运营官 财务官 产品官 总经理 副总裁 总裁 董事长 董事 "
    "合伙人 联合创始人 创始人 架构师 工程师 设计师 分析师 科学家 研究员 总监 经理 主管 负责人 组长 专家 顾问 实习生 主任 部长 讲师 教授 带头人"
).split()
_ZH_ROLE_RE = re.compile("|".join(sorted(_ZH_ROLES, key=len, reverse=True)))
_ZH_TITLE_CUT = (
    "晋升为 晋升至 担任 出任 升任 晋升 升为 成为 作为 任职 兼任 就任 公司 集团 大学 学院 研究院 团队 部门 的 任 为 是 在 于 做 当 兼 及 和 与 、 了 名 位 个"
).split()
_ZH_ORG_SUFFIX_RE = re.compile(
    r"(?:(?:科技|网络|信息|技术|软件|电子|智能|数据|金融|控股|传媒|文化|教育|咨询|实业|发展|互联网)*(?:股份)?"
    r"(?:有限责任公司|股份有限公司|集团有限公司|有限公司|集团公司|公司|集团))"
    r"|研究院|研究所|研究中心|实验室|大学|学院|银行|医院|工作室"
    rf"|科技(?=$|[^{IDEOGRAPHS}]|担任|任|工作|实习|就职|负责|期间|的)"
)
ZH_CORP_TAIL_RE = re.compile(
    r"(?:(?:科技|网络|信息|技术|软件|电子|智能|数据|金融|控股|传媒|文化|教育|咨询|实业|发展|互联网)*(?:股份)?"
    r"(?:有限责任公司|股份有限公司|集团有限公司|有限公司|集团公司|公司|集团)?|科技)$"
)
_ZH_ORG_CUT = "就职于 任职于 供职于 服务于 加入 就职 任职 入职 进入 来到 曾在 在 于 曾 的 和 与 及 、 是 从 到 了 被 由 赴 任 担任 前往".split()
_ZH_GENERIC_CORE = set(
    "本 该 子 分 总 母 全 各 多家 这家 那家 一家 两家 上市 互联网 外包 创业 初创 咨询 我们 我司 贵司 全球 国内 国外 海外 大型 中型 小型 知名 头部 "
    "一线 二线 外企 国企 私企 民营 跨国 世界 本地 合作 目标 客户".split()
)
_ZH_KNOWN_ORGS = (
    "字节跳动 腾讯 阿里巴巴 阿里云 蚂蚁金服 百度 华为 美团 京东 小米 网易 滴滴 快手 拼多多 微软 谷歌 亚马逊 英伟达 商汤 旷视 携程 小红书 "
    "哔哩哔哩 蔚来 比亚迪 中兴 联想 大疆 宁德时代 微博 新浪 搜狐 知乎 得物 米哈游 贝壳 链家"
).split()
_ZH_KNOWN_RE = re.compile("|".join(sorted(_ZH_KNOWN_ORGS, key=len, reverse=True)))
_ZH_NAME_CHAR_RE = re.compile(rf"[{IDEOGRAPHS}A-Za-z0-9()（）]")


def _line_bounds(text: str, pos: int) -> tuple[int, int]:
    start = text.rfind("\n", 0, pos) + 1
    end = text.find("\n", pos)
    return start, len(text) if end == -1 else end


def scan_names(text: str, consumed: list[bool], dates: list[Fact]) -> list[Fact]:
    masked = "".join("\x00" if c else ch for c, ch in zip(consumed, text, strict=False))
    facts: list[Fact] = []
    taken = list(consumed)

    def add(kind: FactKind, start: int, end: int, need: tuple[Any, ...]) -> None:
        if start >= end or not is_free(taken, start, end):
            return
        facts.append(Fact(kind, text[start:end], start, end, need))
        consume(taken, start, end)

    # Chinese titles and organizations first: their spans are unambiguous.
    for m in _ZH_ORG_SUFFIX_RE.finditer(masked):
        start = _zh_left(masked, m.start(), 12, _ZH_ORG_CUT)
        core = masked[start : m.start()]
        if len(core) < 2 or core in _ZH_GENERIC_CORE or core.isdigit():
            continue
        add("organization", start, m.end(), ("zh-org", masked[start : m.end()]))
    for m in _ZH_KNOWN_RE.finditer(masked):
        add("organization", m.start(), m.end(), ("zh-org", m.group(0)))
    for m in _ZH_ROLE_RE.finditer(masked):
        start = _zh_left(masked, m.start(), 8, _ZH_TITLE_CUT)
        add("title", start, m.end(), ("zh-title", masked[start : m.end()]))

    title_lines: set[int] = {_line_bounds(text, f.start)[0] for f in dates}

    runs: list[list[tuple[int, int, str]]] = []
    for m in _RUN_RE.finditer(masked):
        run: list[tuple[int, int, str]] = []
        for w in _WORD_IN_RUN_RE.finditer(m.group(0)):
            word = w.group(0)
            if any(ch.isdigit() for ch in word):  # S3, H100, EC2: product identifiers split a run
                runs.append(run)
                run = []
                continue
            run.append((w.start() + m.start(), w.end() + m.start(), word))
            bare = word[:-1].lower()
            if (
                word.endswith(".")
                and len(bare) > 1
                and bare not in _LEGAL
                and bare not in _ABBREVIATIONS
            ):
                runs.append(run)  # "… in Go and Python. Led the …": a sentence ends here
                run = []
        runs.append(run)

    singles: list[tuple[int, int, str]] = []
    for words in runs:
        words = _strip_leading(masked, words)
        if not words:
            continue
        for kind, part in _split_run(words):
            start, end = part[0][0], part[-1][1]
            if kind == "title":
                add("title", start, end, ("title", title_norm(text[start:end])))
                title_lines.add(_line_bounds(text, start)[0])
            elif len([w for w in part if w[2].lower() not in _CONNECTORS]) >= 2:
                if all(
                    w[2].lower().rstrip(".") in _COMMON
                    or w[2].lower().rstrip(".") in _ROLES
                    or w[2].lower() in _CONNECTORS
                    for w in part
                ):
                    continue
                if any(
                    w[2].rstrip(".").lower() in _FUNCTION_WORDS and w[2][0].isupper()
                    for w in part[1:]
                ):
                    continue  # Title-Case prose ("Systems That Scale"), not a name
                add("organization", start, end, ("org", _org_words(text[start:end])))
            else:
                singles.append((start, end, part[0][2]))

    for m in _LOWER_TITLE_RE.finditer(masked):
        add("title", m.start(1), m.end(1), ("title", title_norm(m.group(1))))

    for start, _end, word in singles:
        bare = word.rstrip(".")
        if bare.lower() in _COMMON or bare.lower() in _ROLES or bare.lower() in _LEGAL:
            continue
        line_start, line_end = _line_bounds(text, start)
        line = text[line_start:line_end]
        known = bare in _KNOWN_ORGS
        context = bool(_ORG_CONTEXT_RE.search(masked[max(0, start - 12) : start]))
        header = line_start in title_lines and (
            line.lstrip().startswith("#")
            or any(ch in _SEPARATOR_CHARS for ch in line)
            or text[max(0, start - 2) : start] == "**"
        )
        if known or context or header:
            add("organization", start, start + len(bare), ("org", _org_words(bare)))
    return facts


def _zh_left(text: str, end: int, limit: int, cuts: list[str]) -> int:
    """Extend left from ``end`` over name characters (at most ``limit``), then cut after the
    last particle/verb such as 在/加入/担任 so only the name remains."""
    start = end
    while start > 0 and end - start < limit and _ZH_NAME_CHAR_RE.match(text[start - 1]):
        start -= 1
    prefix = text[start:end]
    best = 0
    for cut in cuts:
        idx = prefix.rfind(cut)
        if idx != -1:
            best = max(best, idx + len(cut))
    # ASCII words glued to the name (“Java开发工程师”) stay; a trailing space never occurs here.
    return start + best


def _strip_leading(text: str, words: list[tuple[int, int, str]]) -> list[tuple[int, int, str]]:
    """Drop sentence-initial verbs, articles and connectors at the front of a capitalised run."""
    i = 0
    while i < len(words):
        low = words[i][2].lower().rstrip(".")
        if low in _CONNECTORS or (low in _LEADING and low not in _MODIFIERS and low not in _ROLES):
            i += 1
            continue
        if (
            low in ("lead", "head")
            and i + 1 < len(words)
            and words[i + 1][2].lower() != "of"
            and not _is_role(words, i + 1)
            and not any(_is_role(words, k) for k in range(i + 1, len(words)))
        ):
            i += 1  # "Lead Migration …": a verb
            continue
        if (
            i == 0
            and low.endswith(("ed", "ing"))
            and len(words) > 1
            and _sentence_start(text, words[0][0])
        ):
            i += 1
            continue
        break
    rest = words[i:]
    while rest and rest[-1][2].lower() in _CONNECTORS:
        rest = rest[:-1]
    return rest


def _sentence_start(text: str, pos: int) -> bool:
    i = pos - 1
    while i >= 0 and text[i] in " \t*_#>-+`[":
        i -= 1
    return i < 0 or text[i] in "\n.!?:;|。！？：；\x00"


def _is_role(words: list[tuple[int, int, str]], i: int) -> bool:
    word = words[i][2].rstrip(".")
    low = word.lower()
    if word.isupper() and len(word) > 1:
        return word in _ACRONYM_ROLES
    if low not in _ROLES:
        return False
    if i + 1 < len(words):  # "Developer Experience", "Engineer Tools": a compound noun, no title
        nxt = words[i + 1][2].rstrip(".")
        if (
            nxt.lower() not in ("of", "&", "and")
            and not re.fullmatch(r"[IVX]{1,4}|L\d{1,2}|\d", nxt)
            and not _is_role(words, i + 1)
        ):
            return False
    if low in ("lead", "head"):  # "Lead"/"Head" start a sentence as verbs/modifiers
        nxt = words[i + 1][2].lower() if i + 1 < len(words) else ""
        return i > 0 or nxt == "of"
    return True


def _split_run(words: list[tuple[int, int, str]]) -> list[tuple[str, list[tuple[int, int, str]]]]:
    """Split a capitalised run into organization and title parts."""
    roles = [i for i in range(len(words)) if _is_role(words, i)]
    if not roles:
        return [("org", words)]
    last = roles[-1]
    end = last
    # "Head of Engineering", "VP of Product": take the "of …" tail into the title.
    if last + 1 < len(words) and words[last + 1][2].lower() == "of":
        end = len(words) - 1
    floor = 0  # a known employer or a legal suffix ends the organization part
    begin: int | None = None
    for i in range(last + 1):
        word = words[i][2]
        low = word.lower().rstrip(".")
        if low in _LEGAL or word.rstrip(".") in _KNOWN_ORGS:
            floor = i + 1
            continue
        if low in _MODIFIERS or _is_role(words, i):
            begin = i
            break
    if begin is None or begin == last:
        # No seniority word: up to three domain words before the role belong to the title
        # (Machine Learning Engineer), never a connector or an employer.
        j = last
        while j > floor and last - j < 3 and words[j - 1][2].lower() not in _CONNECTORS:
            j -= 1
        begin = j
    parts: list[tuple[str, list[tuple[int, int, str]]]] = []
    if begin > 0:
        head = words[:begin]
        while head and head[-1][2].lower() in _CONNECTORS:
            head = head[:-1]
        if head:
            parts.append(("org", head))
    parts.append(("title", words[begin : end + 1]))
    tail = words[end + 1 :]
    while tail and tail[0][2].lower() in _CONNECTORS:
        tail = tail[1:]
    if tail:
        parts.extend(_split_run(tail))
    return parts


def title_norm(s: str) -> str:
    s = s.lower()
    s = re.sub(r"\bsr\b\.?", "senior", s)
    s = re.sub(r"\bjr\b\.?", "junior", s)
    s = re.sub(r"\bvice[\s-]+president\b", "vp", s)
    s = re.sub(r"\bco-?founder\b", "cofounder", s)
    s = s.replace("&", " and ")
    s = re.sub(f"[^a-z0-9{HAN_EXT_A}{YIJING}{HAN}]+", " ", s)
    return " ".join(s.split())


def _org_words(s: str) -> tuple[str, ...]:
    words = [w.lower().strip(".'’") for w in re.findall(r"[A-Za-z0-9][A-Za-z0-9'’&.+-]*", s)]
    return tuple(w for w in words if w and w not in _CONNECTORS and w not in _LEGAL)
