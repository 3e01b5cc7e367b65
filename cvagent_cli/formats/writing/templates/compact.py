"""``compact``: tighter margins, a smaller font and less space between blocks, to fit one
page where possible."""

from cvagent_cli.formats.writing.templates import HtmlStyle, PdfStyle, Template

TEMPLATE = Template(
    "compact",
    "tighter margins, smaller font: one page where possible",
    pdf=PdfStyle(
        size="9pt",
        name_size="16pt",
        section_size="10.5pt",
        margin="(x: 1.2cm, y: 1cm)",
        space=0.75,
        leading="0.5em",
    ),
    html=HtmlStyle(
        css="""
body { font-size: 13px; line-height: 1.25; max-width: 52em; margin: 1em auto; }
h1 { font-size: 1.6em; margin: 0 0 0.1em; }
h2 { margin-top: 0.8em; margin-bottom: 0.3em; }
h3 { margin: 0.5em 0 0.1em; }
p { margin: 0.2em 0; }
ul { margin: 0.1em 0; }
@media print { @page { margin: 1cm; } }
"""
    ),
)
