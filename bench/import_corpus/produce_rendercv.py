"""rendercv 2.3 themes (typst underneath): a YAML per person, rendered by rendercv's CLI."""

from __future__ import annotations

import shutil
import tempfile
from pathlib import Path

from people import Person
from registry import TOOLS, Producer, producer, run


def rendercv_yaml(person: Person, theme: str) -> dict:
    sections: dict[str, list] = {}
    for s in person.sections:
        if s.kind == "summary":
            sections[s.title] = [s.text]
        elif s.kind == "experience":
            sections[s.title] = [
                {
                    "company": e.org,
                    "position": e.title,
                    "date": str(e.date),
                    **({"location": e.place} if e.place else {}),
                    "highlights": e.bullets,
                }
                for e in s.entries
            ]
        elif s.kind == "education":
            sections[s.title] = [
                {
                    "institution": e.org,
                    "area": e.title,
                    "date": str(e.date),
                    **({"location": e.place} if e.place else {}),
                }
                for e in s.entries
            ]
        elif s.kind == "projects":
            sections[s.title] = [
                {"name": e.org, "date": str(e.date), "summary": e.title, "highlights": e.bullets}
                for e in s.entries
            ]
        else:
            sections[s.title] = [{"bullet": item} for item in s.items]
    handle = person.website.split("/")[-1]
    return {
        "cv": {
            "name": person.name,
            "location": person.location,
            "email": person.email,
            "phone": e164(person.phone, person.lang),
            "social_networks": [{"network": "GitHub", "username": handle}],
            "sections": sections,
        },
        "design": {"theme": theme, **(CJK_DESIGN if person.lang == "zh" else {})},
    }


# A Chinese rendercv resume names a CJK font (an installed one: rendercv allows any name
# when a fonts/ folder is next to the input): the themes' Latin fonts have no CJK glyphs,
# and typst's fallback may pick a font without simplified characters (they vanish).
CJK_DESIGN = {
    "text": {"font_family": "Noto Serif CJK SC"},
    "header": {"name_font_family": "Noto Sans CJK SC"},
}


def e164(phone: str, lang: str) -> str:
    """rendercv wants a number it can validate: the country code in front."""
    number = "".join(c for c in phone if c.isdigit())
    code = "1" if lang == "en" else "86"
    return "+" + (
        number if number.startswith(code) and len(number) > 11 - (lang == "en") else code + number
    )


def make_rendercv(theme: str) -> Producer:
    def produce(
        person: Person, out: Path, stem: str, lang: str
    ) -> tuple[list[Path], set[str], str]:
        import yaml

        with tempfile.TemporaryDirectory() as tmp:
            src = Path(tmp) / "cv.yaml"
            (Path(tmp) / "fonts").mkdir()  # rendercv's way to allow fonts of one's own
            data = rendercv_yaml(person, theme)
            src.write_text(
                yaml.safe_dump(data, allow_unicode=True, sort_keys=False), encoding="utf-8"
            )
            run(
                [
                    TOOLS["rendercv"],
                    "render",
                    str(src),
                    "--pdf-path",
                    str(out / f"{stem}.pdf"),
                    "--dont-generate-png",
                    "--dont-generate-html",
                    "--dont-generate-markdown",
                ],
                Path(tmp),
            )
            shutil.copy(src, out / f"{stem}.yaml")
        # rendercv prints the GitHub handle, not the address
        return (
            [out / f"{stem}.pdf", out / f"{stem}.yaml"],
            {"headline", "website"},
            f"rendercv 2.3, theme {theme}",
        )

    return produce


def _four(options: dict | None = None) -> list[tuple[str, dict]]:
    return [
        ("en", options or {}),
        ("zh", options or {}),
        ("en", options or {}),
        ("zh", options or {}),
    ]


for _theme in ("classic", "sb2nov", "moderncv", "engineeringresumes"):
    producer("rendercv", f"rendercv-{_theme}", _four())(make_rendercv(_theme))
