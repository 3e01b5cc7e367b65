"""English: the words cvagent reads and writes in an English resume."""

from __future__ import annotations

from cvagent_cli.languages import (
    Contact,
    Dates,
    Entries,
    Labels,
    Language,
    Numbers,
    Sections,
    Verbs,
    Wording,
    spaced_size,
)

SECTIONS = Sections(
    titles={
        "contact": (
            "contact",
            "contact information",
            "contact info",
            "contact details",
            "personal information",
            "personal details",
            "personal info",
            "basic information",
            "basic info",
        ),
        "summary": (
            "summary",
            "professional summary",
            "profile",
            "professional profile",
            "about",
            "about me",
            "objective",
            "career objective",
            "career summary",
            "executive summary",
            "overview",
            "summary of qualifications",
            "highlights",
            "career profile",
            "personal statement",
        ),
        "experience": (
            "experience",
            "work experience",
            "professional experience",
            "employment",
            "employment history",
            "work history",
            "career history",
            "relevant experience",
            "internships",
            "internship",
            "internship experience",
            "work",
            "career",
        ),
        "projects": (
            "open source contributions",
            "open-source contributions",
            "open source projects",
            "open source work",
            "code samples",
            "code sample",
            "writing samples",
            "portfolio",
            "selected work",
            "work samples",
            "projects",
            "project",
            "project experience",
            "personal projects",
            "selected projects",
            "side projects",
            "open source",
            "open-source",
            "key projects",
        ),
        "education": (
            "education",
            "academic background",
            "education and training",
            "academics",
            "qualifications",
        ),
        "skills": (
            "skills",
            "technical skills",
            "core skills",
            "key skills",
            "skills and tools",
            "technologies",
            "tech stack",
            "competencies",
            "core competencies",
            "tools",
            "expertise",
            "skill",
        ),
        "awards": (
            "honors and awards",
            "honours and awards",
            "awards and achievements",
            "scholarships",
            "scholarships and awards",
            "prizes",
            "competitions",
            "awards",
            "honors",
            "honours",
            "awards and honors",
            "achievements",
            "recognition",
        ),
        "certifications": (
            "professional certifications",
            "certifications and licenses",
            "licenses & certifications",
            "credentials",
            "courses and certifications",
            "certifications",
            "certificates",
            "certification",
            "licenses",
            "licenses and certifications",
        ),
        "publications": (
            "selected publications",
            "papers and publications",
            "conference talks",
            "speaking",
            "speaking engagements",
            "presentations",
            "invited talks",
            "patents and publications",
            "publications",
            "papers",
            "research",
            "patents",
            "talks",
            "publications and talks",
        ),
        "languages": (
            "language proficiency",
            "foreign languages",
            "english",
            "english proficiency",
            "english skills",
            "english level",
            "idiomas",
            "langues",
            "sprachen",
            "lingue",
            "languages",
            "language skills",
            "language",
        ),
        "volunteer": (
            "volunteer work",
            "volunteering experience",
            "community service",
            "social impact",
            "volunteer and community",
            "volunteer",
            "volunteering",
            "volunteer experience",
            "community",
            "community involvement",
            "leadership",
            "activities",
            "extracurricular activities",
        ),
        "interests": (
            "interests",
            "hobbies",
            "hobbies and interests",
            "interests and hobbies",
            "personal interests",
            "outside interests",
            "other interests",
        ),
        "references": (
            "references",
            "referees",
            "reference",
            "references available upon request",
        ),
        "courses": (
            "courses",
            "coursework",
            "relevant coursework",
            "relevant courses",
            "selected coursework",
            "online courses",
            "training",
            "trainings",
            "professional development",
            "continuing education",
        ),
    },
    keywords=(
        ("project", "projects"),
        ("open source", "projects"),
        ("open-source", "projects"),
        ("portfolio", "projects"),
        ("intern", "experience"),
        ("experience", "experience"),
        ("employment", "experience"),
        ("education", "education"),
        ("skill", "skills"),
        ("competenc", "skills"),
        ("award", "awards"),
        ("honor", "awards"),
        ("honour", "awards"),
        ("certif", "certifications"),
        ("publication", "publications"),
        ("patent", "publications"),
        ("talks", "publications"),
        ("speaking", "publications"),
        ("course", "courses"),
        ("interest", "interests"),
        ("hobb", "interests"),
        ("referee", "references"),
        ("reference", "references"),
        ("licen", "certifications"),
        ("scholarship", "awards"),
        ("language", "languages"),
        ("volunteer", "volunteer"),
        ("summary", "summary"),
        ("profile", "summary"),
        ("objective", "summary"),
        ("contact", "contact"),
    ),
    joiners=("and",),
    internship=("intern",),
    language_names=("english",),
    standard="Summary, Experience, Projects, Education, Skills, Certifications, Awards",
    export_titles={
        "summary": "Summary",
        "work": "Experience",
        "projects": "Projects",
        "education": "Education",
        "skills": "Skills",
        "volunteer": "Volunteering",
        "awards": "Awards",
        "certificates": "Certifications",
        "publications": "Publications",
        "languages": "Languages",
        "interests": "Interests",
        "references": "References",
    },
)
FIXES: dict[str, str] = {
    "completeness.not-a-resume": "Check that this is the right file: a resume has sections such as Experience, Education and Skills, with dates.",
    "completeness.missing-name": 'Put your full name on the first line as a level-1 heading: "# Jane Doe".',
    "completeness.generic-title": 'Replace the title with your full name: "# Jane Doe" (the file name can say "resume").',
    "completeness.missing-email": 'Add a professional email under your name: "jane.doe@example.com".',
    "completeness.masked-phone": "Write the full number in the copy you send to employers; keep it masked only in public copies.",
    "completeness.missing-phone": 'Add a phone number with the country code, e.g. "+1 555-123-4567".',
    "completeness.missing-link": 'Add a link that backs up your work, e.g. "linkedin.com/in/jane-doe" or "github.com/janedoe".',
    "completeness.no-experience": 'Add an "## Experience" section (or "## Projects" if you are starting out) with 3–5 bullets per role.',
    "completeness.no-education": 'Add an "## Education" section: degree, school, years.',
    "completeness.no-skills": 'Add a "## Skills" section grouping tools and methods, e.g. "Languages: Python, SQL".',
    "completeness.no-summary": 'Add a 2–3 line "## Summary": role, years, strongest results, e.g. "[Role], [N] years, [your strongest result from below]".',
    "impact.no-metric": 'Add the number only you know — how much, how many, how fast — e.g. "{example} — [how many / how much / how fast: N, X%]".',
    "impact.weak-opener": 'Say what you did yourself with a verb that is true of your part ({verbs}… only if they are), and end with the result, e.g. "[your verb] {core_en}, [result: X% / N]".',
    "impact.no-action-verb": 'Lead with a past-tense action verb for what you did ({verbs}… only if true), e.g. "[verb] {core_en}" instead of a noun phrase.',
    "clarity.too-long": "Split it into two bullets or cut it to one action, one method and one result (under 25 words).",
    "clarity.too-short": 'Expand it with what you did, how, and the result, e.g. "{example} [how], [result: N / X%]".',
    "clarity.first-person": 'Drop the pronoun and start with the verb: "{rewritten}".',
    "clarity.passive-voice": 'Make yourself the subject: "{active}".',
    "clarity.buzzword": "Replace {quoted} with a fact that shows it: [what you did], [result: X% / N].",
    "clarity.repeated-opener": "Vary the verbs: led, built, cut, shipped, designed, grew, automated…",
    "clarity.mixed-tense": 'Use the past tense for roles you have left: "{word}" → "{past}".',
    "dates.end-before-start": 'Fix the range so that it runs from the earlier date to the later one, e.g. "{swapped}" if the dates are otherwise right.',
    "dates.future": 'Check the year; for an expected graduation write "(expected)" after the date.',
    "dates.missing": 'Add a start and end month under the title, written {usual} like your other dates, e.g. "[start month and year] – [end month and year, or Present]".',
    "dates.inconsistent-format": 'Use one format everywhere: most of your dates are "{usual}", as on line {usual_line}: "{usual_raw}".',
    "dates.not-reverse-chronological": "List the most recent entry first; recruiters read the top one most carefully.",
    "dates.gap": 'If the break was intentional, say so in one line, e.g. "Career break — [reason], [start] – [end]".',
    "ats.too-long": "Cut to 1–2 pages: keep the last 10 years and 3–5 bullets per role.",
    "ats.too-short": "Add experience bullets with results and a skills section (aim for 350–700 words).",
    "ats.table": 'Turn the table into plain lines, e.g. "- Analytics: SQL, Amplitude, Looker".',
    "ats.code-block": "Move code samples to a GitHub link and keep the resume to prose and bullets.",
    "ats.html": "Use plain Markdown instead: a line break instead of <br>, **bold** instead of <span>.",
    "ats.no-headings": 'Mark each section with a Markdown heading: "## Experience", "## Education", "## Skills".',
    "ats.unknown-heading": "Use a standard heading an ATS recognises ({standard}) or drop the section.",
    "ats.heading-skip": "Do not skip levels: use ## for sections and ### for the entries inside them.",
    "ats.duplicate": "Keep it once, in the most relevant role, and write a different result here.",
    "ats.control-chars": "Remove them (they usually come from copy-pasting out of a PDF or Word file).",
    "ats.front-matter-error": "Fix the YAML between the --- lines, e.g. quote values that contain a colon.",
    "ats.long-line": "Break long paragraphs into bullets of one idea each.",
}
PLAIN_FIXES: dict[str, str] = {
    "clarity.first-person": "Rewrite it without the pronoun: start with the verb for what you did.",
    "clarity.passive-voice": "If the work was yours, make yourself the subject: start with the verb for what you did.",
    "dates.missing": 'Add a start and end month under the title, e.g. "[start month and year] – [end month and year, or Present]".',
}
WEAK_OPENERS = (
    "responsible for",
    "helped with",
    "helped to",
    "helped",
    "help with",
    "helping with",
    "worked on",
    "working on",
    "worked closely with",
    "worked with",
    "assisted with",
    "assisted in",
    "assisted",
    "assisting",
    "assist with",
    "participated in",
    "participating in",
    "involved in",
    "tasked with",
    "duties included",
    "duties include",
    "in charge of",
)
BUZZWORDS = (
    "team[- ]player",
    "results?[- ](?:driven|oriented)",
    "hard[- ]?working",
    "detail[- ]oriented",
    "go[- ]getter",
    "synerg(?:y|ies|ize|istic)",
    "think(?:s|ing)? outside (?:of )?the box",
    "out[- ]of[- ]the[- ]box",
    "self[- ]starter",
    "self[- ]motivated",
    "highly motivated",
    "motivated",
    "dynamic(?! programming)",
    "passionate",
    "proven track record",
    "(?:excellent|strong|great) communication skills",
    "fast learner",
    "quick learner",
    "people person",
    "thought leader",
    "rock ?star",
    "ninja",
    "guru",
    "best[- ]of[- ]breed",
    "value[- ]add",
    "works? well under pressure",
    "go[- ]to person",
    "strategic thinker",
)

ACTION_VERBS = frozenset(
    """
accelerate accomplish achieve acquire adapt add address administer advise advocate align
analyse analyze answer apply architect arrange assemble assess audit author automate balance
benchmark boost budget build calculate campaign capture catalog champion clarify clean close
coach code collaborate collect combine compile complete compose compute conceive conduct
configure consolidate construct consult contribute control convert coordinate craft create
curate cut debug decrease define delegate deliver deploy design detect develop devise
diagnose digitize direct discover document double draft drive earn edit educate eliminate
enable encourage engineer enhance ensure establish estimate evaluate evangelize examine
execute expand expedite experiment extend extract facilitate file finalize fix forecast
formalize formulate found gain generate geocode grow guide halve handle head host identify
implement improve increase influence initiate innovate inspect install instrument integrate
interview introduce invent investigate launch lead lift lower maintain manage map market
master maximize measure mentor merge migrate minimize mobilize model moderate modernize
monitor motivate negotiate onboard open operate optimize orchestrate organize outperform
overhaul oversee own package partition partner perform pilot pioneer plan prepare present
prevent prioritize process produce program promote propose prototype provide publish raise
rank rebuild recommend reconcile recruit redesign reduce refactor refine release remove
renovate reorganize replace report research resolve respond restructure retain revamp review
revise revitalize rewrite run save scale schedule screen secure select sell serve set ship
shorten simplify solve spearhead standardize start steer streamline strengthen structure
supervise support surpass survey sustain teach test track train transform translate triple
troubleshoot tune unify upgrade validate verify visualize win write
""".split()
)
IRREGULAR_PAST = {
    "built": "build",
    "rebuilt": "build",
    "led": "lead",
    "wrote": "write",
    "rewrote": "rewrite",
    "ran": "run",
    "drove": "drive",
    "took": "take",
    "made": "make",
    "grew": "grow",
    "won": "win",
    "began": "begin",
    "sold": "sell",
    "taught": "teach",
    "brought": "bring",
    "held": "hold",
    "kept": "keep",
    "met": "meet",
    "gave": "give",
    "spoke": "speak",
    "chose": "choose",
    "oversaw": "oversee",
    "undertook": "undertake",
    "drew": "draw",
    "sought": "seek",
    "understood": "understand",
    "spun": "spin",
    "stood": "stand",
    "struck": "strike",
    "shot": "shoot",
}
AMBIGUOUS_TENSE = frozenset(
    "beat bid broadcast cost cut forecast hit let put quit read set shut split spread upset".split()
)
IRREGULAR_PARTICIPLES = tuple(
    """
built written done made given taken led held kept sent spent brought bought taught found
shown known seen chosen driven grown drawn begun won sold told paid cut set put rebuilt
rewritten overseen undertaken broken spoken understood run
""".split()
)
NOT_PASSIVE = frozenset(
    "advanced based certified dedicated detailed excited experienced interested licensed located married qualified skilled supposed talented".split()
)
BUZZWORD_TRIGGERS = (
    "team",
    "result",
    "hard",
    "detail",
    "getter",
    "synerg",
    "box",
    "starter",
    "motivated",
    "dynamic",
    "passionate",
    "track record",
    "communication skills",
    "learner",
    "people person",
    "thought leader",
    "rock",
    "ninja",
    "guru",
    "breed",
    "value",
    "pressure",
    "go-to",
    "go to",
    "strategic thinker",
)

VERBS = Verbs(
    action=ACTION_VERBS,
    irregular_past=IRREGULAR_PAST,
    ambiguous_tense=AMBIGUOUS_TENSE,
    participles=IRREGULAR_PARTICIPLES,
    not_passive=NOT_PASSIVE,
)

WORDING = Wording(
    weak_openers=WEAK_OPENERS,
    # "I helped", "was responsible for", "we worked on"
    weak_opener_lead=r"(?:i\s+|we\s+)?(?:was\s+|were\s+|am\s+)?",
    strong_verbs="led, built, cut, shipped, designed, grew, launched, automated, reduced",
    buzzwords=BUZZWORDS,
    buzzword_triggers=BUZZWORD_TRIGGERS,
    verbs=VERBS,
    size=spaced_size,
    size_unit="words",
    longest_bullet=35,
    shortest_bullet=4,
    line_size=spaced_size,
    header_size=4,
    dated_header_size=14,
)

DATES = Dates(
    months=(
        r"jan(?:uary)?",
        r"feb(?:ruary)?",
        r"mar(?:ch)?",
        r"apr(?:il)?",
        r"may",
        r"june?",
        r"july?",
        r"aug(?:ust)?",
        r"sep(?:t(?:ember)?)?",
        r"oct(?:ober)?",
        r"nov(?:ember)?",
        r"dec(?:ember)?",
    ),
    abbreviations=tuple("Jan Feb Mar Apr May Jun Jul Aug Sep Oct Nov Dec".split()),
    seasons={
        "spring": (3, 5),
        "summer": (6, 8),
        "fall": (9, 11),
        "autumn": (9, 11),
        "winter": (1, 2),
    },
    present=("present", "currently", "current", "now", "today", "ongoing"),
    present_not_in_prose=("today", "ongoing"),  # rarely about the job in running text
    still=("still",),
    range_words=("to", "until", "till"),
)

NUMBERS = Numbers(
    words=tuple(
        "two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|fifteen|twenty|thirty|forty"
        "|fifty|sixty|hundred|a hundred|a thousand|a dozen".split("|")
    ),
    durations=(
        r"(?:milli)?seconds?",
        r"secs?",
        r"minutes?",
        r"mins?",
        r"hours?",
        r"hrs?",
        r"days?",
        r"weeks?",
        r"months?",
        r"years?",
        r"yrs?",
        r"quarters?",
        r"semesters?",
        r"summers?",
        r"seasons?",
        r"sprints?",
    ),
)

ENTRIES = Entries(
    roles=tuple(
        "engineer developer manager designer analyst scientist intern consultant specialist architect director officer administrator programmer researcher assistant associate lead head accountant teacher nurse technician coordinator representative executive qa ui ux senior junior principal staff frontend backend full-stack fullstack".split()
    ),
    organisations=tuple(
        "inc|llc|ltd|corp|corporation|company|co|university|college|institute|school|bank|labs?|group|agency|office|foundation|association|hospital|studio|gmbh|plc".split(
            "|"
        )
    ),
)

CONTACT = Contact(
    location_labels=("location", "address", "city"),
    location_phrases=("based in",),
    front_matter_keys=tuple(
        "phone mobile tel telephone cell contact phone_number location city address country".split()
    ),
    form_labels=tuple(
        "name phone mobile email e-mail address location city nationality gender birthday "
        "website github linkedin".split()
    ),
    name_labels=("name", "full name"),
    objective_labels=("title", "position", "headline"),
)

LANGUAGE = Language(
    code="en",
    name="English",
    reply_in="English",
    sections=SECTIONS,
    dates=DATES,
    wording=WORDING,
    labels=Labels(),
    numbers=NUMBERS,
    entries=ENTRIES,
    contact=CONTACT,
    markers=frozenset("the and of with for to in on at by from a an".split()),
    resume_words=frozenset("resume résumé cv c.v. curriculum vitae".split()),
    resume_fillers=frozenset("my the of".split()),
    resume_titles=frozenset({"resume", "résumé", "cv", "curriculum vitae"}),
    fixes=FIXES,
    plain_fixes=PLAIN_FIXES,
)
