"""German, as small as a language can be: the test language of tests/languages.

Copied into ``cvagent_cli/languages/`` (as ``de.py``) it is all a third language needs; the
fields left out take the ``Language`` defaults, and a rule without a German fix gives the
fallback language's.  Not a real German table: a handful of words of each kind.
"""

from __future__ import annotations

from cvagent_cli.languages import Dates, Labels, Language, Sections, Wording

LANGUAGE = Language(
    code="de",
    name="German",
    reply_in="German (Deutsch)",
    sections=Sections(
        titles={
            "summary": ("profil", "über mich"),
            "experience": ("berufserfahrung", "berufliche erfahrung"),
            "education": ("ausbildung", "studium"),
            "skills": ("kenntnisse", "fähigkeiten"),
        },
        keywords=(("erfahrung", "experience"), ("kenntnis", "skills")),
        standard="Profil, Berufserfahrung, Ausbildung, Kenntnisse",
        # the sections a data format's import names; the rest take the English titles
        export_titles={"work": "Berufserfahrung", "education": "Ausbildung"},
    ),
    dates=Dates(
        months=(
            r"jan(?:uar)?",
            r"feb(?:ruar)?",
            r"märz|mär",
            r"apr(?:il)?",
            r"mai",
            r"juni?",
            r"juli?",
            r"aug(?:ust)?",
            r"sep(?:t(?:ember)?)?",
            r"okt(?:ober)?",
            r"nov(?:ember)?",
            r"dez(?:ember)?",
        ),
        abbreviations=tuple("Jan Feb Mär Apr Mai Jun Jul Aug Sep Okt Nov Dez".split()),
        present=("heute",),
        range_words=("bis",),
    ),
    wording=Wording(
        weak_openers=("verantwortlich für", "mitgewirkt bei", "geholfen bei"),
        weak_opener_lead=r"(?:ich\s+)?(?:war\s+)?",
        strong_verbs="geleitet, gebaut, gesenkt, eingeführt",
        buzzwords=("teamfähig", "belastbar"),
    ),
    labels=Labels(
        present="heute",
        resume="Lebenslauf",
        resume_of="Lebenslauf von {name}",
        html_lang="de",
        phone="Telefon",
    ),
    markers=frozenset("und der die das mit für bei von im zur den des".split()),
    resume_words=frozenset({"lebenslauf"}),
    resume_titles=frozenset({"lebenslauf"}),
    fixes={
        "impact.weak-opener": "Beginnen Sie mit einem starken Verb ({verbs}) und nennen Sie "
        "das Ergebnis.",
    },
)
