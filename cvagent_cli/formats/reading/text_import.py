"""Plain text → paragraphs: one line a paragraph unless it continues a wrapped line;
bullet glyphs make list items; ALL-CAPS lines and known section names become headings
(``structure`` decides)."""

from __future__ import annotations

import re

from cvagent_cli.formats.reading.structure import Para, is_date_text, strip_glyph
from cvagent_cli.script import HAN_RE

_MD_HEADING_RE = re.compile(r"^\s{0,3}#{1,3}\s+\S", re.M)


def looks_like_markdown(text: str) -> bool:
    return len(_MD_HEADING_RE.findall(text)) >= 2


def text_paragraphs(text: str) -> list[Para]:
    paras: list[Para] = []
    previous_blank = True
    for raw in text.replace("\r\n", "\n").replace("\r", "\n").split("\n"):
        line = raw.rstrip()
        if not line.strip():
            previous_blank = True
            continue
        indent = len(line) - len(line.lstrip())
        is_bullet, rest = strip_glyph(line)
        last = paras[-1] if paras else None
        if is_bullet:
            paras.append(Para(text=rest, role="bullet", depth=1 if indent >= 4 else 0))
        elif (
            last is not None
            and not previous_blank
            and (
                (last.role == "bullet" and indent >= 2)
                or (len(last.text.split("\n")[-1]) >= 60 and not last.text.endswith(("。", ".")))
            )
        ):
            # a wrapped line: it continues the bullet / long line above
            joiner = "" if HAN_RE.match(line.strip()[:1]) else " "
            last.text += joiner + line.strip()
        else:
            paras.append(_entry_line(line.strip()))
        previous_blank = False
    return paras


def _entry_line(line: str) -> Para:
    """ "Senior Developer, Pinecrest Bank  2019 - Present": a date after a wide gap (two
    spaces or a tab) makes the line an entry with its dates."""
    parts = re.split(r"\s{2,}|\t+", line)
    if len(parts) >= 2 and is_date_text(parts[-1]) and not is_date_text(parts[0]):
        left = " ".join(" ".join(parts[:-1]).split())
        return Para(text=f"**{left}** {parts[-1].strip()}", lead=left)
    return Para(text=line)
