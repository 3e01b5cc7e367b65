"""Which parts of the resume the user's message points at, so a turn's context carries
those parts and no more.

Two kinds of reference:

- **an entry** (a role, a project, a school: a heading under a section) by a word of its
  title that no other entry's title has: "the Northwind role", "the Bluefin bullets",
  "青檀那段经历".  The entry is sent instead of its whole section.
- **a section** by its title.  A one-word English title is also a common noun
  ("experience", "summary", "skills"), so in a general career question it counts only
  when the message points at the user's own section: "my/the/this Skills", "Skills
  section", or the title capitalised as a heading.  "10 years of experience" does not.
"""

from __future__ import annotations

import re

from cvagent_cli.document.document import ResumeDocument, Section
from cvagent_cli.script import HAN, HAN_EXT_A, YIJING

#: words of entry titles that say what the job was, not which job: never a reference
_ROLE_WORDS = frozenset(
    """
    senior junior staff lead principal intern internship engineer engineering developer
    manager software analyst director head chief member technical associate assistant
    consultant specialist architect scientist designer present remote full part time
    contract freelance volunteer backend frontend data product project team and the for
    with from university college school bachelor master degree inc ltd llc corp company
    coordinator operations support customer office sales marketing account executive
    officer administrator representative computer science arts business administration
    b.s b.a m.s m.a bsc msc mba phd talk
    """.split()
)
_GENERIC_CJK = (
    "有限公司 科技 公司 有限 集团 工程师 开发 高级 初级 资深 中级 前端 后端 全栈 本科 硕士 博士 "
    "大学 学院 经理 主管 实习 负责人 技术 项目 运营 助理 专员 网络 数据 信息 软件 电商 互动 智能 "
    "电子 传媒 文化 教育 咨询 服务 管理 系统 平台 中心 国际 中国 北京 上海 广州 深圳 杭州 南京 "
    "成都 武汉 西安 天津 重庆 苏州"
).split()
_CJK_RUN = re.compile(f"[{HAN_EXT_A}{YIJING}{HAN}]+")
_WORD = re.compile(r"[A-Za-z0-9][A-Za-z0-9+#.-]*[A-Za-z0-9+#]")
_POINTER_BEFORE = re.compile(r"\b(?:my|the|this|that|your|our|in|to|into|from|under)\s+$", re.I)
_POINTER_AFTER = re.compile(
    r"^\s+(?:section|part|heading|bullets?|entries|entry|lines?|list|block)\b", re.I
)


def _names_something(word: str) -> bool:
    """A title word that looks like a name (Northwind, TinyKV, pgshard-lite), not a
    common word of a talk's or a project's description ("idempotency in payments")."""
    return word[0].isupper() or any(c.isdigit() or c in "-+#." or c.isupper() for c in word[1:])


def _words(title: str) -> set[str]:
    found = {w.casefold().strip(".-") for w in _WORD.findall(title) if _names_something(w)}
    return {
        w
        for w in found
        if len(w) >= 3 and sum(c.isalpha() for c in w) >= 2 and w not in _ROLE_WORDS
    }


def _cjk_pieces(title: str) -> set[str]:
    """Every run of 2 to 8 CJK characters in ``title`` that is more than generic words
    (a company is often called by two characters of its name: 青檀, 腾讯)."""
    pieces = set()
    for run in _CJK_RUN.findall(title):
        for size in range(2, min(len(run), 8) + 1):
            for start in range(len(run) - size + 1):
                piece = run[start : start + size]
                rest = piece
                for generic in _GENERIC_CJK:
                    rest = rest.replace(generic, "")
                if len(rest) >= 2:
                    pieces.add(piece)
    return pieces


def named_entries(doc: ResumeDocument, text: str) -> list[Section]:
    """The entries (headings below a section) the message names by a word (or, in
    Chinese, two or more characters) of their title that no other entry's title has."""
    entries = [s for s in doc.sections if s.parent_id is not None and s.heading_line and s.title]
    if not entries:
        return []
    words = {s.id: _words(s.title) for s in entries}
    pieces = {s.id: _cjk_pieces(s.title) for s in entries}
    seen_words: dict[str, int] = {}
    seen_pieces: dict[str, int] = {}
    for s in entries:
        for w in words[s.id]:
            seen_words[w] = seen_words.get(w, 0) + 1
        for p in pieces[s.id]:
            seen_pieces[p] = seen_pieces.get(p, 0) + 1
    said_words = {w.casefold().strip(".-") for w in _WORD.findall(text)}
    named = []
    for s in entries:
        if any(seen_words[w] == 1 and w in said_words for w in words[s.id]) or any(
            seen_pieces[p] == 1 and p in text for p in pieces[s.id]
        ):
            named.append(s)
    return named


def points_at(title: str, text: str) -> bool:
    """Whether ``text`` points at the user's own section called ``title`` (see the
    module docstring); titles of more than one word, or not in English, by mention."""
    folded = title.casefold().strip()
    if not folded:
        return False
    if not (folded.isascii() and folded.isalpha()):
        return folded in text.casefold()
    for match in re.finditer(rf"(?<![a-z0-9]){re.escape(folded)}(?![a-z0-9])", text, re.I):
        said = match.group()
        if said[0].isupper() or _POINTER_BEFORE.search(text[: match.start()]):
            return True
        if _POINTER_AFTER.match(text[match.end() :]):
            return True
    return False
