"""``modern``: an accent colour, a centred header, entry rows with the title and employer
on the left and the place and dates right-aligned ("Seattle, WA · Mar 2019 – Present"),
the title in bold and the employer in regular weight."""

from cvagent_cli.formats.writing.templates import HtmlStyle, PdfStyle, Template

ACCENT = "1F5F8B"

TEMPLATE = Template(
    "modern",
    "an accent colour, a centred header",
    pdf=PdfStyle(
        size="10pt",
        name_size="24pt",
        section_size="12pt",
        margin="(x: 1.7cm, y: 1.5cm)",
        space=1.0,
        leading="0.6em",
        accent=f'rgb("#{ACCENT.lower()}")',
        muted="luma(90)",
        rule="partial",
        header_align="center",
        title_split=True,
        place_right=True,
        link=f'rgb("#{ACCENT.lower()}")',
    ),
    html=HtmlStyle(
        css=f"""
h1 {{ color: #{ACCENT.lower()}; text-align: center; font-size: 2.2em; }}
h1 + p, p.header {{ text-align: center; margin: 0.1em 0; }}
h2 {{ color: #{ACCENT.lower()}; border-bottom-color: #{ACCENT.lower()}; }}
li::marker {{ color: #{ACCENT.lower()}; }}
a {{ color: #{ACCENT.lower()}; }}
.entry {{ display: flex; flex-wrap: wrap; align-items: baseline; column-gap: 1.2em;
         margin: 0.8em 0 0.2em; }}
.entry > :first-child {{ margin: 0; }}
.entry .where {{ margin: 0 0 0 auto; color: #5a5a5a; white-space: nowrap; }}
table.pairs th {{ text-align: left; padding-right: 1.2em; }}
""",
        from_layout=True,
    ),
)
