"""Does a bullet state a metric?  The whole grammar, in one place.

A number is a METRIC when it measures a result or a scale::

    metric   := number measure | currency number | scale-word | comparison
    measure  := percent            40%, 12 percent, 8个百分点, 3 pp, 百分之二十
              | multiplier         3x, 10×, 5 times, 3倍, fourfold (doubled, 翻倍, 一半 need no digit)
              | scale              2M, 2M+, 25k, 2 million, 100万, 1.2亿, hundreds of, 数十, 百万级,
                                   亿级, 数亿, 过亿, a billion-row store
              | unit               50 GB, 120 ms, 12k QPS, 400 km, 15 points, 4.8分
              | count              4 junior engineers, three new hires, 200+ episodes, 12家, 6 个微服务,
                                   a team of 3, 3 of 4 bids, a 6-engineer team, a 120-person event,
                                   an 80 person workshop, 500 A4 pages (a name inside the count),
                                   第一名, 12,000 (thousands grouped), DAU 800 (a quantity's name),
                                   用例 318， (a plain number ending its clause after a noun)
              | zero of something  zero downtime, zero P1 incidents, cut to zero, 零故障, 降为零
              | duration, changed  saved 10 hours, cut by two days, 2 weeks ahead, 缩短 2 小时
    comparison := from N to M, from 240 to under 20, to N from M, 从 N … 到/至 M, 降至不到 20

A number NAMES or DATES something and never counts (it is blanked before the measures are
read) when it is:

    a date             2019, Mar 2020, 2019.03, 19～20年, 18年至今, Q3, FY2023
    glued to a name    S3, EC2, HTML5, 2D/3D, 5G, B2B, P7, Java-11, CVE-2021-44228, 7-Eleven
    after a name       Java 8, Vue 2, ISO 27001, PCI DSS Level 1, CS 101, Hackathon 42 and 43,
                       Team 7, Windows 365 (a capitalised or naming word right before it)
    an ordinal         3rd shift, 第 42 届, 第三方 (but a placing is a result: 第一名, 1st place)
    an id or a phone   #4521, 0800 123 4567, seven digits or more, 1:1, 24/7, 9-to-5
    inside a URL, an e-mail address or a quoted title   "Top 5 Tips…", 《…5 个技巧》, “双 11”
                       (a link is ASCII: "github.com/a/b获得1200个star" keeps the count)
    a plain duration   for 6 months, 用时2周, 5+ years of experience, 3-month internship

Only what remains is read for measures, so "Moved 60 services from Java 8 to Java 17" counts
(60 services) and "Migrated the build from Java 8 to Java 17" does not.
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Iterator

from cvagent_cli import languages
from cvagent_cli.document.basics import EMAIL_LIKE
from cvagent_cli.document.dates import find_ranges
from cvagent_cli.document.numerals import ZH_DIGITS, ZH_POWERS
from cvagent_cli.script import FULLWIDTH_DIGITS, IDEOGRAPHS

# -- shared pieces ----------------------------------------------------------------------
_FULLWIDTH = str.maketrans("０１２３４５６７８９％", "0123456789%")
_NUM = r"\d[\d,]*(?:\.\d+)?"
_ZH_NUMERAL = ZH_DIGITS + ZH_POWERS
_ZH_NUM = f"[{_ZH_NUMERAL}]+"
# The number words and units of time of the languages' tables: those written with spaces
# are read word by word (whole words, any case), the others character by character.
_NUMBER_WORDS_RE = "|".join(
    languages.words_of(lambda language: language.numbers.words if language.spaced else ())
)
_SPACED_DURATIONS = "|".join(
    languages.words_of(lambda language: language.numbers.durations if language.spaced else ())
)
_UNSPACED_DURATIONS = "|".join(
    languages.words_of(lambda language: () if language.spaced else language.numbers.durations)
)
# A duration is a result only when it changed: a change word shortly before it, "by N days",
# or "N weeks ahead / earlier".
_CHANGE_RE = re.compile(
    r"(?i)(?:\b(?:cut|cutting|reduc\w*|sav\w*|shorten\w*|shrunk|shrank|decreas\w*|lower\w*|"
    r"trim\w*|slash\w*)\b|缩短|节省|节约|减少|降低|降至|降到|提前|加快|压缩)(?:(?![.;。；]).){0,24}$|\bby\s*$"
)
_AFTER_CHANGE_RE = re.compile(
    r"(?i)\s*(?:ahead|early|earlier|sooner|faster|less|shorter|以内|提前)"
)

# -- what never counts: masked, in this order ---------------------------------------------
# Each pattern runs only when a cheap test (a character it needs) passes: most bullets hold
# no URL, quote, id, 年 or "experience", so most of these never scan.
# A link is ASCII and stops before a bracket, a comma or Chinese text written right after it
# ("github.com/a/b获得1200个star", "kvx(1,200 stars)"): \w and the URL characters are ASCII.
_URL_CHARS = r"[A-Za-z0-9\-._~:/?#\[\]@!$&*+=%]"
_URL_RE = re.compile(
    rf"(?i)(?:https?://|www\.){_URL_CHARS}+|{EMAIL_LIKE}|[\w-]+(?:\.[\w-]+)+/{_URL_CHARS}*",
    re.ASCII,
)
_QUOTED_RE = re.compile(
    r"\"[^\"\n]{1,80}\"|“[^”\n]{1,80}”|《[^》\n]{1,40}》|「[^」\n]{1,40}」|『[^』\n]{1,40}』"
)
_ID_RE = re.compile(
    r"#\s?\d+"  # ticket #4521, Weekend #12
    r"|\d+\s*[:：]\s*\d+"  # 1:1, 2:1, 9:30
    r"|\d+\s*/\s*\d+(?!\s*%)"  # 24/7, 2021/0123456
    r"|\d+-to-\d+"  # 9-to-5
    r"|\d+\s*[×xX*]\s*\d+"  # 7×24, 1920x1080
)
# Every character or word one of the region patterns needs (one search instead of six).
_REGION_GATE_RE = re.compile(
    r"[/@\"“《「『#:：×*年岁第]|www\.|xp|XP|-to-|(?:19|20)\d\d|\d\s*[xX]\s*\d"
)
_ID_GATE_RE = re.compile(r"[#:：/×*]|-to-|\d\s*[xX]\s*\d")
_QUOTE_GATE_RE = re.compile(r"[\"“《「『]")
# Phones and long ids: seven digits or more in a run of digits, spaces and dashes.
_PHONE_RE = re.compile(r"\d[\d -]{5,}\d")
_PHONE_NOT_RE = re.compile(r"[\d,.%]|\s*(?:万|亿|元|[kKmMbB]\b)")
# A year, with its month and day if written (2019, 2019.03, 2019-03-15), unless a measure
# follows it ("2000+ users", "2020万"); dates.find_ranges takes the ranges.
_YEAR_GATE_RE = re.compile(r"(?:19|20)\d\d")
_YEAR_RE = re.compile(
    r"(?:19|20)\d\d(?:[./-]\d{1,2}(?:[./-]\d{1,2})?)?"
    r"(?![\d,]|\.\d|\s*(?:%|％|\+|[万亿千百人名位个倍元块次项家台条]|[kKmM]\b))"
)
_ZH_YEARS_RE = re.compile(
    r"(?:19|20)\d\d\s*年\s*\d{1,2}\s*月(?:\s*\d{1,2}\s*[日号])?|\d{2}\s*[～~\-–—至到]\s*\d{2}\s*年|\d{2}\s*年(?=\s*(?:至今|起|底|初|[上下]半年))"
    r"|\d+\s*\+?\s*年(?:以上|多|半)?(?:的)?(?:(?![\d，。；,;]).){0,8}?(?:经验|经历|从业)"
    r"|(?:工作年限|工龄|年限)\s*[:：]?\s*\d+\s*年"
    r"|\d+\s*岁"
)
_TENURE_EN_RE = re.compile(
    r"(?i)\d+\s*\+?\s*(?:years?|yrs?)\b(?:\s+(?:of|in|as))?(?:\s+[\w-]+){0,3}?\s+(?:experience|exp)\b"
)
_ZH_ORDINAL_RE = re.compile(rf"第\s*(?:\d+|{_ZH_NUM})(?!\d|\s*名)")
# A number token: where each number starts, with whatever is glued to it.
_TOKEN_RE = re.compile(r"\d[A-Za-z0-9_.,]*(?:-[A-Za-z0-9_.]+)*")
_GLUED_TOKEN_RE = re.compile(r"[2-4][Dd]|[3-6]G|\d+-[A-Z]\w*|\d+(?:st|nd|rd|th)")
_PLACE_RE = re.compile(r"\s+(?:place|prize|of\s+\d)")
# A number right after a name is part of the name ("Java 8", "Hackathon 42", "Level 1",
# "ISO 27001"), and so is a number joined to it ("Hackathon 42 and 43", "CS 101 and MATH 221"),
# unless an explicit measure follows it ("GitHub 1,200+ stars").
_NAMING_WORDS = frozenset(
    """version ver v level lv grade band phase sprint team squad cohort module chapter section
    season episode unit ward channel studio wave year class room route gate platform terminal
    building floor no number issue ticket bug port line release iteration edition round
    pr page step tier stage cet 版本""".split()
)
# ASCII characters after which a run of plain digits can be neither glued to a name nor
# named ("(3", ", 12", "$5"); so can any non-ASCII character but a dash ("日均50", "，12").
_NOT_NAME_BEFORE = frozenset(',;:()!?$~<>[]{}|=%*"')
_WORD_TAIL_RE = re.compile(r"[A-Za-z0-9_.#+&/'-]*\Z")
_NAMED_RESCUE_RE = re.compile(r"\+|\s*(?:%|％|[kK]\b|万|亿|倍|million|billion|percent)")
# Thousands grouped with commas ("DAU 12,000", "members 2,100") count: no name, version or id
# is written that way.
_GROUPED_RE = re.compile(r"\d{1,3}(?:,\d{3})+(?:\.\d+)?")
# The names of quantities: a number after one of them is its value ("DAU 800", "NPS 62"),
# where after any other capitalised word it is part of a name ("Java 8").
_QUANTITY_NAMES = frozenset("DAU MAU WAU GMV QPS TPS PV UV SKU SKUs NPS ARR MRR CTR".split())
_JOIN_RE = re.compile(r"\s*(?:,|and|&|/|、|和|与|or)\s*(?=\d)")


def _blanked(text: str, spans: list[tuple[int, int]]) -> str:
    if not spans:
        return text
    chars = list(text)
    for start, end in spans:
        chars[start:end] = " " * (end - start)
    return "".join(chars)


def _regions(text: str) -> list[tuple[int, int]]:
    """URLs, quoted titles, ids, dates, Chinese years and tenure, ordinals: spans to blank."""
    spans: list[tuple[int, int]] = []
    if "/" in text or "@" in text or "www." in text:
        spans += [m.span() for m in _URL_RE.finditer(text)]
    if _QUOTE_GATE_RE.search(text):
        spans += [m.span() for m in _QUOTED_RE.finditer(text)]
    if _ID_GATE_RE.search(text):
        spans += [m.span() for m in _ID_RE.finditer(text)]
    if "年" in text or "岁" in text:
        spans += [m.span() for m in _ZH_YEARS_RE.finditer(text)]
    if "xp" in text or "XP" in text:
        spans += [m.span() for m in _TENURE_EN_RE.finditer(text)]
    if _YEAR_GATE_RE.search(text):
        spans += [(r.offset, r.offset + len(r.raw)) for r in find_ranges(text)]
        for match in _YEAR_RE.finditer(text):
            start = match.start()
            if not (start and (text[start - 1].isalnum() or text[start - 1] in ".,")):
                spans.append(match.span())
    if "第" in text:
        spans += [m.span() for m in _ZH_ORDINAL_RE.finditer(text)]
    return spans


def mask_non_metrics(text: str) -> str:
    """``text`` (full-width digits made ASCII) with every number that names or dates
    something blanked, offsets kept."""
    if not text.isascii():
        text = text.translate(_FULLWIDTH)
    spans: list[tuple[int, int]] = []
    if _REGION_GATE_RE.search(text):  # most bullets: no URL, quote, id, year, 年 or tenure
        spans += _regions(text)
    for match in _PHONE_RE.finditer(text):
        start, end = match.span()
        if sum(ch.isdigit() for ch in match.group()) >= 7 and not (
            (start and text[start - 1] in ",.") or _PHONE_NOT_RE.match(text, end)
        ):
            spans.append((start - (start > 0 and text[start - 1] == "+"), end))
    masked = _blanked(text, spans)
    names: list[tuple[int, int]] = []
    named_next = False
    for match in _TOKEN_RE.finditer(masked):
        start, end = match.span()
        token = match.group()
        before = masked[start - 1] if start else " "
        if (
            not named_next
            and token.isdigit()
            and (before in _NOT_NAME_BEFORE or not (before.isascii() or before in "–—"))
        ):
            continue  # plain digits after Chinese or punctuation: neither glued nor named
        glued = _glued(masked, start, token)
        if glued or named_next or _after_a_name(masked, start):
            if not glued and (
                _NAMED_RESCUE_RE.match(masked, end) or _GROUPED_RE.fullmatch(token.rstrip(".,"))
            ):
                named_next = False
                continue
            names.append((start, end))
            named_next = bool(_JOIN_RE.match(masked, end))
        else:
            named_next = False
    return _blanked(masked, names)


def _glued(text: str, start: int, token: str) -> bool:
    """S3, EC2, Java-11, HTTP/2, C++17, C# 12, 2D, 5G, 7-Eleven, 3rd (not "1st place")."""
    before = text[start - 1] if start else " "
    if (before.isascii() and before.isalpha()) or before in "+#":
        return True
    if before in "-/" and start > 1 and text[start - 2].isascii() and text[start - 2].isalpha():
        return True
    if before == " " and start > 1 and text[start - 2] == "#":
        return True
    glued = _GLUED_TOKEN_RE.fullmatch(token.rstrip(".,"))
    return bool(glued) and not _PLACE_RE.match(text, start + len(token))


def _after_a_name(text: str, start: int) -> bool:
    """Is the word before the number a name (or a naming word like "Level" or "version")?"""
    i = start
    while i > 0 and text[i - 1] in " \t":
        i -= 1
    if i > 0 and text[i - 1] in "-–":  # "Java-11", "Level - 2"
        i -= 1
    if i == start and i > 0 and text[i - 1] != "-":
        return False  # glued, handled by _glued
    last = text[i - 1] if i else " "
    if not (last.isascii() and (last.isalnum() or last in "._#+&/'")):
        return text.startswith("版本", i - 2, i)  # after Chinese or punctuation: no name
    before = text[max(0, i - 40) : i].split()
    tail = _WORD_TAIL_RE.search(before[-1]) if before and not text[i - 1].isspace() else None
    word = tail.group().rstrip("-") if tail else ""
    j = i - len(tail.group()) if tail else i
    if word.lower() == word.upper():  # no letter: "", "3.5", "#"
        return text[max(0, i - 2) : i] == "版本"
    if word.endswith("."):
        return False  # the end of a sentence: "… over PostgreSQL. 1,400 GitHub stars"
    if word.lower() in _NAMING_WORDS:
        return True
    if word in _QUANTITY_NAMES:
        return False
    if word == word.lower():
        return False  # no capital: not a name
    first = not text[:j].strip(" \t*_-•·\"'“(")
    # A capitalised first word is the bullet's verb ("Mentored 4 engineers"), unless the
    # word is mixed-case or all capitals like a product ("iOS 17", "SQL 2019").
    return not first or word[1:] != word[1:].lower()


# -- what counts: read from the masked text ----------------------------------------------
_COUNTABLE_IRREGULAR = "people|staff|personnel|children|alumni|men|women|feet|data|media"
_NOT_PLURAL = frozenset(
    """is was has does its this thus plus less across unless always sometimes perhaps status
    process analysis business access address class pass mass bus gas bonus campus virus
    canvas series news physics mathematics economics basis diagnosis thesis us as yes
    afterwards towards various previous famous serious numerous continuous""".split()
)
_FUNCTION_WORDS = frozenset(
    """with and in on for to of at by from the a an as into across via using under over per
    or than that which who while within during after before through each every all""".split()
)
_ZH_COUNTERS = "人名位家个项款套台份次场篇门条支所座笔单件张页行字起元倍块辆部批户例类种首本间"
# after a Chinese numeral, only counters that rarely start a word ("十字路口", "三元组")
_ZH_WORD_COUNTERS = "人名位家个项款套台份次场篇门条支所座笔单件倍万亿"
_EN_UNITS = (
    "%|percent|per cent|pp|percentage points?|points?|bps|basis points|x(?![A-Za-z])|×|times(?![A-Za-z])|fold(?![A-Za-z])"
    "|k(?![A-Za-z])|K(?![A-Za-z])|[MB](?=\\+|\\s+(?!(?:in|at|for|and|or|on|of|to|with)(?![A-Za-z]))[a-z])|bn(?![A-Za-z])|million|billion|thousand|trillion"
    "|ms(?![A-Za-z])|milliseconds?|µs|ns(?![A-Za-z])|[KMGTP]B(?![A-Za-z])|[KMGT]iB(?![A-Za-z])|kWh|MWh|km(?![A-Za-z])|kg(?![A-Za-z])|tons?(?![A-Za-z])|tonnes?(?![A-Za-z])"
    "|QPS|TPS|RPS|req/s|rps(?![A-Za-z])|fps(?![A-Za-z])|FPS|Mbps|Gbps|stars?(?![A-Za-z])"
    "|USD|EUR|GBP|RMB|CNY|JPY|dollars|euros|pounds|yuan"
)
_PEOPLE = "person|people|man|member|seat|guest|attendee|participant|student|engineer|employee"
_FUNCTION_ALT = "|".join(sorted(_FUNCTION_WORDS))
# A number followed by its measure (one pattern, so one scan that skips to each digit).
_NUMBER_MEASURE_RE = re.compile(
    rf"{_NUM}(?:"
    # a unit: percent, multiplier, scale, physical unit, currency word
    rf"\s*\+?\s*(?:{_EN_UNITS})"
    rf"|\s*[+余多]?\s*(?:%|万|亿|倍|元|个百分点|百分点|毫秒|分(?!钟|别|享|析|布|配|类|工|期|支|公司|数据|批)|平方米|公里|吨)"
    # a Chinese counter: 12家, 6 个微服务, 60余人 (not 6 个月)
    rf"|\s*(?:余|多|几|\+)?\s*(?:[{_ZH_COUNTERS}](?!月|工作日)|人次|人日)"
    # "50+ 物料组件", "4,000+": a plus says "at least this many" (a length of time excepted)
    rf"|\+(?!\s*(?:{_SPACED_DURATIONS}|{_UNSPACED_DURATIONS}))"
    # "a 6-engineer team", "a 2,000-item backlog" (not "3-tier", "12-week")
    rf"|-(?!(?:{_SPACED_DURATIONS}|tier|layer|step|way|star|level|stage|page|point)\b)[a-z]+\s+[a-z]+"
    # "an 80 person workshop", "a 25 member team": a count of people written before its noun
    rf"|\s+(?:{_PEOPLE})\s+(?!(?:{_FUNCTION_ALT})\b)[a-z]+"
    # "3 of 4 bids", "800 → 120"
    rf"|\s+(?:out\s+)?of\s+(?:the\s+)?\d|\s*(?:→|->|=>)\s*\d"
    r")"
)
# "about 60", "under 20", "fewer than 10": a bound or an estimate between a word and its number
_ABOUT = (
    r"(?:(?:about|around|roughly|approximately|nearly|almost|just|only|some|over|under|below|above"
    r"|(?:less|fewer|more)\s+than)\s+)?"
)
# Word measures, each run only when the words it needs are in the bullet (``tokens``).
_ZERO_TECHNIQUES = "trust|shot|day|copy|knowledge|waste|code|touch|sum|point|one"
_SCALE_WORDS = frozenset(
    """million billion trillion hundreds thousands millions billions dozens dozen double doubled doubling triple tripled
    tripling quadruple quadrupled quadrupling halved twice threefold fourfold fivefold tenfold
    half third thirds quarter quarters""".split()
)
_WORD_MEASURES: tuple[tuple[frozenset[str], re.Pattern[str]], ...] = (
    # "a team of 3", "an audience of 450"
    (
        frozenset(
            "team group crew audience class total cohort fleet community base portfolio".split()
        ),
        re.compile(
            r"(?i:\b(?:team|group|crew|audience|class|total|cohort|fleet|community|base|portfolio)\s+of\s+"
            rf"(?:over\s+|about\s+|nearly\s+|almost\s+|more\s+than\s+|some\s+)?(?:{_NUM}|{_NUMBER_WORDS_RE})\b)"
        ),
    ),
    # placings won: 1st place, first prize
    (
        frozenset({"place", "prize"}),
        re.compile(r"(?i:\b(?:\d+(?:st|nd|rd|th)|first|second|third)\s+(?:place|prize)\b)"),
    ),
    # comparisons: "from 800 to 120", "from about 60 to under 10", "to 4.8 from 3.9"
    (
        frozenset({"from"}),
        re.compile(
            rf"(?i:\bfrom\s+{_ABOUT}(?:{_NUM}|{_NUMBER_WORDS_RE})\b[^.;,]{{0,30}}?"
            rf"\bto\s+{_ABOUT}(?:{_NUM}|{_NUMBER_WORDS_RE}|zero)\b)"
            rf"|(?i:\bto\s+{_NUM}\b[^.;,]{{0,20}}?\bfrom\s+{_NUM}\b)"
        ),
    ),
    # scale and proportion words, no digit needed
    (
        _SCALE_WORDS,
        re.compile(
            r"(?i:\b(?:hundreds|thousands|millions|billions|dozens)\b|\ba dozen\b"
            r"|\b(?:doubl|tripl|quadrupl)(?:e|ed|ing)\b|\bhalved\b|\btwice\b|\b(?:three|four|five|ten)fold\b"
            r"|\bby\s+(?:a\s+|one\s+|two\s+)?(?:half|third|quarter|thirds|quarters)\b|\bin\s+half\b)"
            # "a billion-row store", "a million-user launch" (not "the Million Trees campaign")
            r"|\b(?:million|billion|trillion)-[a-z]+"
        ),
    ),
    # zero of something ("zero downtime", "zero P1 incidents") or a count brought to zero; not
    # a technique ("zero-trust", "zero-shot", "zero trust") nor "from zero" (from scratch)
    (
        frozenset({"zero"}),
        re.compile(
            rf"(?<![\w-])(?<!from )zero\s+(?!(?:{_FUNCTION_ALT}|{_ZERO_TECHNIQUES})\b)[A-Za-z0-9]"
            r"|\b(?:to|at)\s+(?:nearly\s+|almost\s+)?zero\b"
        ),
    ),
)
# a bare count: thousands grouped with commas ("members 2,100"), the value of a named
# quantity ("DAU 800", "NPS 62")
# the last character of a word that names with its number: 模块 3, 小组 2, 阶段 3, 迭代 12
_ZH_NAMING_ENDS = "号期届级版章节组班层楼室区栋段代块本型轮"
_GROUPED_COUNT_RE = re.compile(rf"(?<![\d.,]){_GROUPED_RE.pattern}(?![\d,])")
_QUANTITY_VALUE_RE = re.compile(rf"\b(?:{'|'.join(sorted(_QUANTITY_NAMES))})\s*[:：]?\s*\d")
_QUANTITY_TOKENS = frozenset(name.lower() for name in _QUANTITY_NAMES)
# ... and in Chinese, a plain number ending its clause after a noun: 用例 318，粉丝 5200。
# "star 1500"; not a name's number (模块 3，小组 2，5 号楼) nor a version (基础库 2.0)
_CLAUSE_END_NUMBER_RE = re.compile(r"\d[\d,]*(?![.\d])(?=\s*(?:[，。；、,;）)]|$))")
_NOUN_BEFORE_RE = re.compile(
    rf"(?:[{IDEOGRAPHS}](?<![{_ZH_NAMING_ENDS}])|(?<![A-Za-z])[a-z]{{2,12}})\s?\Z"
)
# currency before the number
_CURRENCY_RE = re.compile(rf"[$€£¥￥]\s*{_NUM}|(?:USD|EUR|GBP|RMB|CNY)\s?{_NUM}")
_CURRENCY_GATE_RE = re.compile(r"[$€£¥￥]|USD|EUR|GBP|RMB|CNY")
_DURATION_WORDS = frozenset(
    """ms millisecond milliseconds second seconds sec secs minute minutes min mins hour hours hr
    hrs day days week weeks month months year years yr yrs quarter quarters semester semesters
    summer summers season seasons sprint sprints""".split()
)
_ZH_DURATION_GATE_RE = re.compile("[秒分时天周月年季]")
_TOKEN_WORD_RE = re.compile(r"[a-z][a-z]*")
_ZH_ABOUT = "(?:不到|不足|少于|低于|约|近|仅|只有)?"
_ZH_ADVERSE = "故障|事故|宕机|投诉|客诉|缺陷|回滚|丢失|差错|漏洞|延误|失误|逾期|报错|重大|安全|伤亡|违规|返工|P\\d"
_ZH_MEASURE_RE = re.compile(
    # a Chinese numeral and a counter: 十人, 三倍, 两名 (一个 is an article, not a count)
    rf"(?:[{_ZH_NUMERAL[1:]}][{_ZH_NUMERAL}]*|一[十百千万])(?:余|多|几)?(?:[{_ZH_WORD_COUNTERS}](?!月)|人次)"
    # a placing won: 第一名, 第 3 名
    rf"|第\s*(?:\d+|{_ZH_NUM})\s*名"
    # a comparison: 从 15 分钟缩短到 4 分钟
    rf"|从\s*(?:每\S{{1,2}}\s*)?(?:{_NUM}|{_ZH_NUM})(?:(?![，。；,;]).){{0,12}}?(?:到|至|为)\s*(?:每\S{{1,2}}\s*)?{_ZH_ABOUT}\s*(?:{_NUM}|{_ZH_NUM})"
    # scale and proportion words: 数十, 亿级, 亿元级, 过亿 (not 亿 in a name: 亿联)
    r"|百分之|翻番|翻倍|减半|一半|数量级|[数上几][十百千万亿]|[过破超近][千万亿]|[百千万亿]元?级|百万|千万|[十百千万亿]余?[万亿]"
    # zero of something bad, or brought to zero: 零故障, 零投诉, 降为零, 把积压工单清零
    rf"|零(?:{_ZH_ADVERSE})|[降减压][为到至]零|[把将][^，。；,;]{{1,12}}清零"
)
_DURATION_RES = (
    re.compile(
        rf"(?i:{_NUM}\s*(?:{_SPACED_DURATIONS})\b|\b(?:{_NUMBER_WORDS_RE})\s+(?:{_SPACED_DURATIONS})\b)"
    ),
    re.compile(rf"(?:{_NUM}|{_ZH_NUM})\s*(?:{_UNSPACED_DURATIONS})"),
)
_DIGIT_RE = re.compile(f"[0-9{FULLWIDTH_DIGITS}]")
_SURE_RE = re.compile(r"[%％]|\d\s*(?:万|亿|倍|毫秒|个百分点)|[$€£¥￥]\s?\d")
_PERCENT_DOUBT_RE = re.compile(r"[\"“《「『]|://|www\.")
_NUMBER_WORDS = frozenset(
    (
        _NUMBER_WORDS_RE.replace("a ", "")
        + "|zero|million|billion|trillion|hundreds|thousands|millions|billions|dozens|double|doubled|"
        "doubling|triple|tripled|tripling|quadrupled|halved|twice|threefold|fourfold|fivefold|tenfold|half|"
        "third|quarter|thirds|quarters"
    ).split("|")
)
# Anything that could start a metric: a digit, a number or scale word, a Chinese numeral.
_MAYBE_RE = re.compile(
    rf"\d|[{_ZH_NUMERAL}亿零]|百分之|翻番|翻倍|数量级"
    rf"|(?i:\b(?:{_NUMBER_WORDS_RE}|zero|million|billion|trillion|hundreds|thousands|millions|billions|dozens|doubl\w*|tripl\w*|quadrupl\w*|halved|twice|\w+fold|half|third|quarter)\b)"
)


# A number (digits, or a number word: the second pattern runs only when the bullet has one)
# and the four words after it.  Digits first: a pattern that starts with \d lets re skip
# ahead to each digit.
_COUNT_WORDS = r"((?:\s+[A-Za-z](?:[\w/.&+'-]|’)*){1,4})"
_EN_COUNT_RES = (
    re.compile(rf"{_NUM}\s*\+?{_COUNT_WORDS}"),
    re.compile(rf"(?i:\b(?:{_NUMBER_WORDS_RE})\b)(?!\.\w){_COUNT_WORDS}"),
)
# a plural noun, or an acronym's plural ("GPUs", "APIs")
_COUNT_NOUN_RE = re.compile(rf"[a-z][a-z-]*[a-z]s|[A-Z][A-Z0-9]+s|{_COUNTABLE_IRREGULAR}")
_DURATION_NOUN_RE = re.compile(rf"(?i)(?:{_SPACED_DURATIONS})$")


def _en_counts(masked: str, tokens: frozenset[str]) -> Iterator[tuple[int, int]]:
    """ "4 junior engineers", "three new hires", "200+ episodes": a number, at most three
    modifiers (no "with", "in" …), then a plural noun that is not a length of time."""
    digits, words = _EN_COUNT_RES
    for match in itertools.chain(
        digits.finditer(masked), words.finditer(masked) if tokens & _NUMBER_WORDS else ()
    ):
        parts = match.group(1).split()
        for i, raw in enumerate(parts):
            word = raw.rstrip(".,;:!?)’'")
            if _COUNT_NOUN_RE.fullmatch(word) and word not in _NOT_PLURAL:
                if not _DURATION_NOUN_RE.match(word):
                    end = masked.index(word, match.start(1)) + len(word)
                    yield match.start(), end
                break
            if word in _FUNCTION_WORDS or word != raw or i == 3:
                break


def _durations(masked: str, tokens: frozenset[str]) -> Iterator[tuple[int, int]]:
    """A length of time that changed: "saved 10 hours", "by two days", "2 weeks ahead"."""
    if tokens & _DURATION_WORDS:
        yield from _changed(_DURATION_RES[0], masked)
    if not masked.isascii() and _ZH_DURATION_GATE_RE.search(masked):
        yield from _changed(_DURATION_RES[1], masked)


def _changed(regex: re.Pattern[str], masked: str) -> Iterator[tuple[int, int]]:
    for match in regex.finditer(masked):
        before = masked[max(0, match.start() - 40) : match.start()]
        if _CHANGE_RE.search(before) or _AFTER_CHANGE_RE.match(masked, match.end()):
            yield match.span()


def _metric_spans(text: str, tokens: frozenset[str] | None = None) -> Iterator[tuple[int, int]]:
    """Every measure in ``text``, lazily and cheapest first, so that ``has_metric`` stops at
    the first one.  ``tokens``: the lower-case English words of ``text``, when known."""
    if _DIGIT_RE.search(text):
        masked = mask_non_metrics(text)
    elif not _MAYBE_RE.search(text):
        return
    elif _QUOTE_GATE_RE.search(text):  # no digit to mask, but a number word may be quoted
        masked = _blanked(text, [m.span() for m in _QUOTED_RE.finditer(text)])
    else:
        masked = text
    for regex in (_NUMBER_MEASURE_RE, _GROUPED_COUNT_RE):
        for match in regex.finditer(masked):
            yield match.span()
    if _CURRENCY_GATE_RE.search(masked):
        for match in _CURRENCY_RE.finditer(masked):
            yield match.span()
    if tokens is None:
        tokens = frozenset(_TOKEN_WORD_RE.findall(text.lower()))
    if tokens & _QUANTITY_TOKENS:
        for match in _QUANTITY_VALUE_RE.finditer(masked):
            yield match.span()
    yield from _en_counts(masked, tokens)
    if not masked.isascii():
        for match in _ZH_MEASURE_RE.finditer(masked):
            yield match.span()
        for match in _CLAUSE_END_NUMBER_RE.finditer(masked):
            if _NOUN_BEFORE_RE.search(masked, max(0, match.start() - 14), match.start()):
                yield match.span()
    for needs, regex in _WORD_MEASURES:
        if tokens & needs:
            for match in regex.finditer(masked):
                yield match.span()
    yield from _durations(masked, tokens)


def find_metrics(text: str) -> list[tuple[int, int]]:
    """The spans of ``text`` that state a metric, by the grammar above."""
    return sorted(set(_metric_spans(text)))


def has_metric(text: str, tokens: frozenset[str] | None = None) -> bool:
    """Some number in ``text`` measures a result or a scale.  ``tokens`` (the lower-case
    words, when the caller has them) lets a bullet with no digit and no number word skip
    the grammar."""
    if _SURE_RE.search(text) and not _PERCENT_DOUBT_RE.search(text):
        # A percent, money, 万/亿/倍 or milliseconds measure whatever stands before them, so
        # no masking is needed — unless the number could sit in a URL or a quoted title.
        return True
    if (
        tokens is not None
        and text.isascii()
        and not tokens & _NUMBER_WORDS
        and not _DIGIT_RE.search(text)
        and "$" not in text
    ):
        return False
    return next(_metric_spans(text, tokens), None) is not None
