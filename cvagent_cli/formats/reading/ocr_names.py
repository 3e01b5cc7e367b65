"""What OCR does to the name at the top of a scanned page, undone (``pdf_header`` reads
the name; these repairs run on OCR's lines only, since a text layer's letters are exact).

The detector reads a section title, a side label or a job title into the name's box; the
recognizer takes small letters for capitals of the same shape, and one letter of a name
for another of like shape.  Each repair needs evidence on the page: a section title's or
a job's words, the shape of the letters, the e-mail that spells the name.
"""

from __future__ import annotations

import re
from dataclasses import replace

from cvagent_cli.document import person
from cvagent_cli.document.basics import EMAIL_RE
from cvagent_cli.document.person import is_role
from cvagent_cli.formats.reading.pdf_layout import join_words
from cvagent_cli.formats.reading.pdf_lines import PageLine, is_section, note, part
from cvagent_cli.formats.reading.structure import Recognition


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
    ends = [k for k in range(len(words) - 1, 0, -1) if is_section(join_words(words[k:]))]
    # or the job title printed on the name's row ("Tobiah Thornquist  QA Automation
    # Engineer", moderncv's banking style), the longest that leaves a name before it
    ends += [k for k in range(1, len(words)) if is_role(join_words(words[k:]))]
    for k in ends:
        if person.clean_name(join_words(words[:k])):
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


#: Letters OCR mistakes for each other: thin strokes, round letters, arches.
_LOOK_ALIKE = ("il1|!jtfr", "ceoa", "nhu", "vy")


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
    return any(
        long[:i] + long[i + 1 :] == short and long[i] in _LOOK_ALIKE[0] for i in range(len(long))
    )


def spelled_as_the_email(
    name: list[PageLine], page: list[PageLine], recognition: Recognition
) -> None:
    """A name OCR misread by one letter ("Illse Ashcombe": a capital I and an l are the
    same stroke in a sans-serif; see ``_misread``) is spelled as the page's e-mail spells it,
    when that address holds the name's other words as they were read ("ilse.ashcombe@…"):
    two readings agree there, where the name's one reading does not."""
    found = next((m for ln in page if (m := EMAIL_RE.search(ln.text()))), None)
    words = [w for ln in name for w in ln.words if not w.mark]
    if found is None or not all(w.text.isalpha() and w.text.isascii() for w in words):
        return
    tokens = re.findall(r"[a-z]+", found.group().split("@")[0].lower())
    unread = [w for w in words if w.text.lower() not in tokens]
    if len(unread) != 1 or len(unread) == len(words) or len(unread[0].text) < 3:
        return
    (misread,) = unread
    spelled = [t for t in tokens if _misread(misread.text.lower(), t)]
    if len(spelled) != 1:
        return
    fixed = spelled[0].upper() if misread.text.isupper() else spelled[0].capitalize()
    for line in name:
        line.words = [replace(w, text=fixed) if w is misread else w for w in line.words]
    note(recognition, f"OCR read the name as '{misread.text}': spelled '{fixed}' as in the e-mail")
