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
        name_size="26pt",
        section_size="12.5pt",
        margin="(x: 1.7cm, y: 1.5cm)",
        space=1.0,
        leading="0.6em",
        leading_zh="0.85em",
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
h1 {{ color: #{ACCENT.lower()}; text-align: center; }}
p.header {{ text-align: center; }}
h2 {{ color: #{ACCENT.lower()}; border-bottom: none; display: flex; align-items: center;
     gap: 0.6em; }}
h2::after {{ content: ""; flex: 1; border-top: 0.6pt solid #{ACCENT.lower()}; }}
li::marker {{ color: #{ACCENT.lower()}; }}
a {{ color: #{ACCENT.lower()}; }}
.entry .where {{ color: #5a5a5a; }}
"""
    ),
)
