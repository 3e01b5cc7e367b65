"""The export templates, one module each in this folder (``classic.py``, ``compact.py``,
``modern.py``): a module defines ``TEMPLATE``, what the PDF (typst), DOCX and HTML writers
need of it, together.  The registry finds every module here, so adding a template is
adding one file; ``cvagent export --template`` and the writers offer it from then on."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field

from cvagent_cli.errors import UsageError
from cvagent_cli.registry import find_in_package

#: The template used when none is named.
DEFAULT = "classic"


@dataclass(frozen=True)
class PdfStyle:
    """The PDF's settings (lengths in typst units)."""

    size: str = "10pt"
    name_size: str = "24pt"
    section_size: str = "12.5pt"
    margin: str = "(x: 1.6cm, y: 1.5cm)"
    space: float = 1.0  # the unit of vertical space, in em
    leading: str = "0.55em"
    # a language written without spaces (Chinese): ideographs fill the whole em, so the
    # lines need more air (about 1.5 × size)
    leading_zh: str = "0.8em"
    accent: str = "black"
    muted: str = "luma(60)"
    rule: str = "full"  # full: a line under the section title; partial: a line after it
    header_align: str = "left"
    title_split: bool = False  # "Title — Employer": the title bold, the employer regular
    place_right: bool = False  # an entry's place beside its dates ("Seattle, WA · 2019 – …")
    link: str = "inherit"  # the colour of links: inherit (the text's) or a colour

    def leading_for(self, spaced: bool) -> str:
        """The leading of a language written with spaces between words, or without them
        (``leading_zh``: ideographs fill the em)."""
        return self.leading if spaced else self.leading_zh


@dataclass(frozen=True)
class DocxStyle:
    """What the Word document needs beyond the PDF's settings (its fonts, sizes, margins,
    colours and rules are the PDF's, see ``docx_template``): the fonts Word uses where the
    PDF's are not installed."""

    latin_fallback: str = "Arial"  # for Noto Sans
    cjk_fallback: str = "Microsoft YaHei"  # for Noto Sans SC (PingFang SC on a Mac by family)
    code_fallback: str = "Consolas"  # for DejaVu Sans Mono


@dataclass(frozen=True)
class HtmlStyle:
    """The HTML page's settings: CSS added to the shared stylesheet (whose type sizes,
    leading, spacing and page margins come from ``PdfStyle``, so a page prints as the PDF
    does)."""

    css: str = ""


@dataclass(frozen=True)
class Template:
    name: str
    summary: str  # what it looks like, for --help
    pdf: PdfStyle = field(default_factory=PdfStyle)
    docx: DocxStyle = field(default_factory=DocxStyle)
    html: HtmlStyle = field(default_factory=HtmlStyle)


def find_templates(path: Iterable[str], package: str) -> dict[str, Template]:
    """The ``TEMPLATE`` of every module of ``package`` (at ``path``), by name, the default
    first; a module's name is its template's."""
    return find_in_package(path, package, "TEMPLATE", Template, lambda x: x.name, DEFAULT)


REGISTRY = find_templates(__path__, __name__)
#: The template names, the default first.
TEMPLATES = tuple(REGISTRY)


def check_template(name: str) -> str:
    if name not in REGISTRY:
        raise UsageError(
            f"unknown template '{name}'", hint=f"choose one of: {', '.join(TEMPLATES)}"
        )
    return name


def get_template(name: str) -> Template:
    return REGISTRY[check_template(name)]
