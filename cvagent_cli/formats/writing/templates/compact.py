"""``compact``: tighter margins, a smaller font and less space between blocks, to fit one
page where possible."""

from cvagent_cli.formats.writing.templates import PdfStyle, Template

TEMPLATE = Template(
    "compact",
    "tighter margins, smaller font: one page where possible",
    pdf=PdfStyle(
        size="9pt",
        name_size="19pt",
        section_size="11pt",
        margin="(x: 1.2cm, y: 1cm)",
        space=0.75,
        leading="0.5em",
        leading_zh="0.72em",
    ),
)
