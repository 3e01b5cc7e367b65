"""What OCR does to the name at the top of a scanned page, undone (``pdf_header`` reads
the name; these repairs run on OCR's lines only, since a text layer's letters are exact).

The detector reads a section title, a side label or a job title into the name's box; the
recognizer takes small letters for capitals of the same shape, one letter of a name for
another of like shape, and one Chinese character for another ("失" for 朱).  Each repair
needs evidence: a section title's or a job's words, the shape of the letters, the e-mail
that spells the name, the recognizer's own next choice and what names are written with
(``zh_names``).
"""

from __future__ import annotations

import re
from dataclasses import replace

from cvagent_cli.document import person, zh_names
from cvagent_cli.document.basics import EMAIL_RE
from cvagent_cli.document.person import is_role
from cvagent_cli.formats.reading.pdf_layout import join_words
from cvagent_cli.formats.reading.pdf_lines import PageLine, is_section, note, part
from cvagent_cli.formats.reading.structure import Recognition
from cvagent_cli.script import HAN


def title_glued_on(lines: list[PageLine], line: PageLine) -> PageLine:
    """OCR's detector reads a name and the section title of the column beside it as one
    line when they nearly touch ("Delphine Abernathy SUMMARY", or a side label before it:
    "PERSONAL INFORMATION Marisol Ravensworth", Europass), or the job title on its row:
    the title is cut off onto a line of its own after the name.  The line that stays (the
    name's) is returned."""
    words = line.words
    for k in range(1, len(words)):  # a side label, the name after it
        if is_section(join_words(words[:k])) and person.clean_name(join_words(words[k:])):
            at = lines.index(line)
            name = part(words[k:], line)
            lines[at : at + 1] = [name, part(words[:k], line)]
            return name
    if person.clean_name(line.text()):
        return line
    titled = [k for k in range(len(words) - 1, 0, -1) if is_section(join_words(words[k:]))]
    # or the job title printed on the name's row ("Tobiah Thornquist  QA Automation
    # Engineer", moderncv's banking style), the longest that leaves a name before it
    roled = [k for k in range(1, len(words)) if is_role(join_words(words[k:]))]
    for k in titled + roled:
        before = join_words(words[:k])
        # before a section title, a name whose space OCR lost ("DelphineAbernathy"); not
        # before a job: "CopperlineAnalytics, Senior Software Engineer" is an employer's row
        if person.clean_name(before) or (k in titled and person.unglued(before)):
            at = lines.index(line)
            name = part(words[:k], line)
            lines[at : at + 1] = [name, part(words[k:], line)]
            return name
    return line


#: Capitals drawn as their small letter is, only larger: OCR takes one for the other.
_CASE_ALIKE = frozenset("COSVWXZ")


def cased_as_printed(word: str) -> str:
    """A word of a name OCR read with capitals inside it that are small letters of the
    same shape ("RaVenSWOrth" → "Ravensworth"): after a small letter, such a capital is
    small, unless a prefix that keeps a capital stands before it ("McCarthy", "DeSouza")."""
    if word.isupper() or not any(ch.islower() for ch in word):
        return word
    out = list(word)
    for i in range(1, len(out)):
        before = "".join(out[:i])
        if (
            out[i] in _CASE_ALIKE
            and out[i - 1].islower()
            and before.casefold() not in person.INNER_CAPITALS
        ):
            out[i] = out[i].lower()
    return "".join(out)


#: A Chinese name with Latin letters right after it, no space between
_LATIN_AFTER_RE = re.compile(rf"([{HAN}]{{2,4}})[A-Za-z][^{HAN}]*")


def chinese_name_glued(text: str) -> str | None:
    """The Chinese name of a line read with a headline glued on ("郑若曦Java": OCR lost
    the bar and the spaces between them), when the characters make a name; else None."""
    glued = _LATIN_AFTER_RE.fullmatch(text.strip())
    return glued.group(1) if glued and zh_names.plausible(glued.group(1)) else None


#: A word OCR read with a small l for its capital I: "llse", "lvana", "lngrid".
_SMALL_L_RE = re.compile(r"\bl(?=[a-z]+\b)")


def capital_i(name: str) -> str:
    """A name OCR read with a capital I as a small l, the same stroke in a sans-serif
    ("llse Kowalczyk" → "Ilse Kowalczyk"): a name's words begin with a capital, so a word
    of small letters that begins with l begins with I (a particle, "la", "le", stays)."""
    return _SMALL_L_RE.sub(
        lambda m: m.group() if name[m.start() :].split()[0] in person.PARTICLES else "I", name
    )


#: Letters OCR mistakes for each other: thin strokes, round letters, arches.
_LOOK_ALIKE = ("il1|!jtfr", "ceoa", "nhu", "vy", "gq")


def _misread(read: str, spelled: str) -> bool:
    """Could OCR have read ``spelled`` as ``read``: one thin stroke more or less ("Illse"
    for "Ilse"), or one letter taken for one of like shape?  Not a letter that changes a
    name's spelling ("Jon" and "John" are two names)."""
    if abs(len(read) - len(spelled)) > 1 or read == spelled:
        return False
    if len(read) == len(spelled):
        pairs = [(a, b) for a, b in zip(read, spelled, strict=True) if a != b]
        return len(pairs) == 1 and any(set(pairs[0]) <= set(g) for g in _LOOK_ALIKE)
    short, long = sorted((read, spelled), key=len)
    if long is read and _DOUBLE_L_RE.search(read) and _DOUBLE_L_RE.sub("l", read) == spelled:
        return False  # "Quillfeather" read whole in large letters, "quilfeather@" in small
    return any(
        long[:i] + long[i + 1 :] == short and long[i] in _LOOK_ALIKE[0] for i in range(len(long))
    )


#: A doubled l two letters or more into a word: a spelling ("Quillfeather", "Kellerman"),
#: where OCR's extra stroke comes beside a capital I ("Illse" for "Ilse").
_DOUBLE_L_RE = re.compile(r"(?<=[a-z]{2})ll(?!l)")


def spelled_as_the_email(
    name: list[PageLine], page: list[PageLine], recognition: Recognition
) -> None:
    """A name OCR misread by one letter a word ("Illse Ashcombe": a capital I and an l are
    the same stroke in a sans-serif; see ``_misread``) is spelled as the page's e-mail spells
    it, when that address holds each of the name's words as read or one such letter apart
    ("ilse.ashcombe@…"): two readings agree there, where the name's one reading does not."""
    found = next((m for ln in page if (m := EMAIL_RE.search(ln.text()))), None)
    # the name's words as read (a name from a "Name:" field is one word with its spaces)
    words = [t for ln in name for w in ln.words if not w.mark for t in w.text.split()]
    if found is None or len(words) < 2 or not all(w.isalpha() and w.isascii() for w in words):
        return
    tokens = re.findall(r"[a-z]+", found.group().split("@")[0].lower())
    fixes: dict[str, str] = {}
    for word in words:
        if word.lower() in tokens:
            continue
        spelled = [t for t in tokens if _misread(word.lower(), t)]
        if len(spelled) != 1 or len(word) < 3 or spelled[0] in fixes.values():
            return  # a word the address does not confirm: the name stays as read
        fixes[word] = spelled[0].upper() if word.isupper() else spelled[0].capitalize()
    if not fixes:
        return
    for line in name:
        line.words = [
            replace(w, text=" ".join(fixes.get(t, t) for t in w.text.split())) for w in line.words
        ]
    read, fixed = " ".join(words), " ".join(fixes.get(w, w) for w in words)
    note(recognition, f"OCR read the name as '{read}': spelled '{fixed}' as in the e-mail")


#: A line that is a Chinese name, or a name after its label ("姓名：王梓萱"): 2–4 characters,
#: a space between them at most.
_ZH_NAME_RE = re.compile(rf"((?:姓\s*名\s*[:：]\s*)?)([{HAN}](?: ?[{HAN}]){{1,3}})")


def may_be_chinese_name(text: str) -> bool:
    """Could the line ``text`` be a Chinese name (or one after its label)?"""
    return _ZH_NAME_RE.fullmatch(text) is not None


def chinese_name_as_written(text: str, choices: list[list[str]]) -> str:
    """A Chinese name OCR read with a character names are not written with, where its next
    choice for that character is one they are ("失书瑶" → 朱书瑶, "王梓管" → 王梓萱; see
    ``zh_names``): ``choices`` holds, for each character of the line ``text``, the other
    characters the recognizer gave a fair chance, most likely first.  A line that already
    reads as a name, or that no choice makes one, stays as it was."""
    found = _ZH_NAME_RE.fullmatch(text)
    if found is None or len(choices) != len(text) or zh_names.plausible(found.group(2)):
        return text
    chars = list(text)
    start = found.start(2)
    name_at = [i for i in range(start, len(text)) if text[i] != " "]
    compound = "".join(chars[i] for i in name_at[:2]) in zh_names.COMPOUND_FAMILY
    for k, i in enumerate(name_at[2:] if compound else name_at):
        fits = zh_names.FAMILY if k == 0 and not compound else zh_names.GIVEN
        if chars[i] not in fits:
            chars[i] = next((ch for ch in choices[i] if ch in fits), chars[i])
    fixed = "".join(chars)
    return fixed if zh_names.plausible(fixed[start:]) else text
