"""Word lists the rules and the JD matcher use, English and Chinese.

Plain data on purpose: reviewers can extend a list without touching any rule logic.
"""

from __future__ import annotations

# ~190 base forms.  Past, third-person and -ing forms are derived by ``rules.lemma``.
ACTION_VERBS: frozenset[str] = frozenset(
    """
accelerate accomplish achieve acquire adapt add address administer advise advocate align analyze
analyse answer apply architect arrange assemble assess audit author automate balance benchmark boost
budget build calculate campaign capture catalog champion clarify clean close coach code collaborate
collect combine compile complete compose compute conceive conduct configure consolidate construct
consult contribute control convert coordinate craft create curate cut debug decrease define
delegate deliver deploy design detect develop devise diagnose digitize direct discover document
double draft drive earn edit educate eliminate enable encourage engineer enhance ensure establish
estimate evaluate evangelize examine execute expand expedite experiment extend extract facilitate
file finalize fix forecast formalize formulate found gain generate geocode grow guide halve handle head
host identify implement improve increase influence initiate innovate inspect install instrument
integrate interview introduce invent investigate launch lead lift lower maintain manage map market
master maximize measure mentor merge migrate minimize mobilize model moderate modernize monitor
motivate negotiate onboard open operate optimize orchestrate organize outperform overhaul oversee own
package partner partition perform pilot pioneer plan prepare present prevent prioritize process
produce program promote propose prototype provide publish raise rank rebuild recommend reconcile
recruit redesign reduce refactor refine release remove renovate reorganize replace report research
resolve respond restructure retain revamp review revise revitalize rewrite run save scale schedule
screen secure select sell serve set ship shorten simplify solve spearhead standardize start steer
streamline strengthen structure supervise support surpass survey sustain teach test track train
transform translate triple troubleshoot tune unify upgrade validate verify visualize win write
""".split()
)

# Past forms that do not end in -ed; mapped to their base.
IRREGULAR_PAST: dict[str, str] = {
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
# Same spelling in present and past: they say nothing about tense.
AMBIGUOUS_TENSE: frozenset[str] = frozenset(
    "cut set put read spread hit quit shut split cost upset broadcast forecast beat bid let".split()
)

# EN weak openers, matched at the start of a bullet (after an optional "I"/"was").
WEAK_OPENERS_EN: tuple[str, ...] = (
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
WEAK_OPENERS_ZH: tuple[str, ...] = (
    "主要负责",
    "负责",
    "参与",
    "协助",
    "帮助",
    "配合",
    "跟进",
    "协同",
)
STRONG_VERBS_EN = "led, built, cut, shipped, designed, grew, launched, automated, reduced"
STRONG_VERBS_ZH = "主导、设计、搭建、推动、优化、落地、重构、带领"

# Buzzwords and clichés: regex fragments (EN is matched whole-word, case-insensitively).
BUZZWORDS_EN: tuple[str, ...] = (
    r"team[- ]player",
    r"results?[- ](?:driven|oriented)",
    r"hard[- ]?working",
    r"detail[- ]oriented",
    r"go[- ]getter",
    r"synerg(?:y|ies|ize|istic)",
    r"think(?:s|ing)? outside (?:of )?the box",
    r"out[- ]of[- ]the[- ]box",
    r"self[- ]starter",
    r"self[- ]motivated",
    r"highly motivated",
    r"motivated",
    r"dynamic(?! programming)",
    r"passionate",
    r"proven track record",
    r"(?:excellent|strong|great) communication skills",
    r"fast learner",
    r"quick learner",
    r"people person",
    r"thought leader",
    r"rock ?star",
    r"ninja",
    r"guru",
    r"best[- ]of[- ]breed",
    r"value[- ]add",
    r"works? well under pressure",
    r"go[- ]to person",
    r"strategic thinker",
)
# Every EN buzzword contains one of these substrings (lower case): a fast pre-check that
# spares most bullets the big regex.  tests/analysis/test_rules_clarity.py keeps them in sync.
BUZZWORD_TRIGGERS: tuple[str, ...] = (
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
BUZZWORDS_ZH: tuple[str, ...] = (
    "吃苦耐劳",
    "积极主动",
    "团队合作精神",
    "团队精神",
    "抗压能力强",
    "认真负责",
    "学习能力强",
    "沟通能力强",
    "踏实肯干",
    "有责任心",
    "责任心强",
    "执行力强",
    "性格开朗",
    "乐观开朗",
    "善于沟通",
    "适应能力强",
    "勤奋好学",
    "工作认真",
    "任劳任怨",
    "爱岗敬业",
)

# Irregular past participles for passive-voice detection ("was built", "were led by").
IRREGULAR_PARTICIPLES: tuple[str, ...] = tuple(
    """
built written done made given taken led held kept sent spent brought bought taught found shown
known seen chosen driven grown drawn begun won sold told paid cut set put rebuilt rewritten overseen
undertaken broken spoken understood run
""".split()
)
# "-ed" words after a be-verb that are adjectives in resumes, not passives.
NOT_PASSIVE: frozenset[str] = frozenset(
    "based located interested excited married supposed experienced skilled qualified certified "
    "licensed dedicated detailed advanced talented".split()
)

GENERIC_TITLES: frozenset[str] = frozenset(
    {"resume", "résumé", "cv", "curriculum vitae", "简历", "个人简历", "求职简历", "履历"}
)
STANDARD_SECTIONS_EN = "Summary, Experience, Projects, Education, Skills, Certifications, Awards"
STANDARD_SECTIONS_ZH = "个人简介、工作经历、项目经历、教育背景、专业技能、获奖情况"

# --- JD matching -----------------------------------------------------------------------
# "Canonical|alias|alias": the first name is shown; any alias matches.  Matching is
# whole-word with symbol-aware edges (see jd.py), case-insensitive unless listed in
# CASE_SENSITIVE_TERMS (short words that are also ordinary English: "Go", "C", "R").
TECH_TERMS: tuple[str, ...] = (
    # languages
    "Python",
    "Go|golang",
    "Java",
    "JavaScript|JS|ECMAScript|ES6",
    "TypeScript|TS",
    "C++|cpp",
    "C#|csharp",
    "C",
    "Rust",
    "Ruby",
    "PHP",
    "Kotlin",
    "Swift",
    "Objective-C",
    "Scala",
    "R",
    "Dart",
    "Lua",
    "Perl",
    "Elixir",
    "Haskell",
    "Bash|shell scripting",
    "SQL",
    "HTML|HTML5",
    "CSS|CSS3",
    "Sass|SCSS",
    "MATLAB",
    # frameworks and runtimes
    "Node.js|NodeJS|Node",
    "React|React.js|ReactJS",
    "React Native",
    "Vue|Vue.js|VueJS|Vue 2|Vue 3",
    "Angular",
    "Svelte",
    "Next.js|NextJS",
    "Nuxt|Nuxt.js",
    "jQuery",
    "Redux",
    "Vuex",
    "Pinia",
    "Webpack",
    "Vite",
    "Rollup",
    "Babel",
    "ESLint",
    "Jest",
    "Playwright",
    "Cypress",
    "Selenium",
    ".NET|dotnet|.NET Core|ASP.NET",
    "Spring Boot|SpringBoot|Spring Framework|Spring MVC",
    "Spring Cloud",
    "MyBatis",
    "Django",
    "Flask",
    "FastAPI",
    "Rails|Ruby on Rails",
    "Express|Express.js",
    "Koa",
    "NestJS",
    "Gin",
    "Laravel",
    "Flutter",
    "GraphQL",
    "gRPC",
    "REST|RESTful|REST API",
    "Protocol Buffers|protobuf",
    "WebSocket|WebSockets",
    "Tailwind|Tailwind CSS",
    "qiankun",
    "Module Federation",
    "Electron",
    # data and ML
    "PostgreSQL|Postgres|psql",
    "MySQL",
    "SQLite",
    "MongoDB|Mongo",
    "Redis",
    "Elasticsearch",
    "Cassandra",
    "DynamoDB",
    "ClickHouse",
    "Snowflake",
    "BigQuery",
    "Oracle",
    "SQL Server|MSSQL",
    "Kafka|Apache Kafka",
    "RabbitMQ",
    "RocketMQ",
    "Spark|Apache Spark|PySpark",
    "Hadoop",
    "Flink",
    "Airflow",
    "dbt",
    "pandas",
    "NumPy",
    "scikit-learn|sklearn",
    "TensorFlow",
    "PyTorch",
    "machine learning|ML",
    "deep learning",
    "NLP",
    "LLM|LLMs",
    "Tableau",
    "Looker",
    "Power BI",
    "Excel",
    "ETL",
    "data modeling",
    "A/B testing|A/B tests|AB testing|split testing",
    # cloud and ops
    "AWS|Amazon Web Services",
    "GCP|Google Cloud",
    "Azure",
    "Kubernetes|k8s",
    "Docker",
    "Terraform",
    "Ansible",
    "Helm",
    "Linux",
    "Nginx",
    "CI/CD|CI-CD|CICD|continuous integration",
    "GitHub Actions",
    "GitLab CI",
    "Jenkins",
    "Git",
    "Prometheus",
    "Grafana",
    "OpenTelemetry|OTel",
    "observability",
    "microservices|microservice",
    "distributed systems",
    "serverless",
    "Lambda",
    "SRE",
    "DevOps",
    "on-call",
    "Envoy",
    "Istio",
    "service mesh",
    # practices and web
    "SSR|server-side rendering",
    "BFF",
    "SaaS",
    "SPA",
    "PWA",
    "H5",
    "Web Vitals|Core Web Vitals",
    "TDD",
    "unit testing|unit tests",
    "Agile|Scrum",
    "system design",
    "design patterns",
    "OAuth",
    "security",
    "performance tuning",
    "Figma",
    "Jira",
    "OKRs|OKR",
    "SEO",
    "UX",
    "product analytics",
    "stakeholder management",
    "roadmapping|roadmap",
    "data analysis",
    "data visualization",
    # soft skills (a few; JDs repeat them, resumes rarely say them outright)
    "communication skills|communicator",
    "leadership",
    "mentoring|mentor|mentored|mentorship",
    "collaboration",
    "problem solving|problem-solving",
    "ownership",
    "open source|open-source",
    "code review|code reviews",
)
CASE_SENSITIVE_TERMS: frozenset[str] = frozenset(
    "Go C R TS H5 ML Node Gin Koa Express Swift Rust Dart Lambda Oracle SPA SRE UX BFF Excel Lua".split()
)
# Single letters and "Go" also refuse hyphens and dots around them: "C-level", "R&D",
# "Daniel R. Okafor" and "Go-to-market" are not programming languages.
SHORT_AMBIGUOUS: frozenset[str] = frozenset({"C", "R", "Go"})
ZH_TERMS: tuple[str, ...] = (
    "性能优化",
    "微服务",
    "高并发",
    "高可用",
    "分布式",
    "数据分析",
    "项目管理",
    "小程序|微信小程序",
    "微前端",
    "前端工程化|工程化",
    "组件库",
    "低代码",
    "可视化|可视化搭建",
    "监控",
    "数据结构",
    "算法",
    "机器学习",
    "深度学习",
    "大数据",
    "数据仓库|数仓",
    "用户增长",
    "数据驱动",
    "团队管理|带团队|带领团队",
    "代码审查|代码评审|Code Review",
    "技术评审",
    "架构设计",
    "系统设计",
    "自动化测试",
    "单元测试",
    "容器化",
    "云原生",
    "消息队列",
    "缓存",
    "数据库优化|慢 SQL",
    "跨端",
    "跨部门协作|跨团队协作",
    "沟通能力|沟通",
    "团队协作",
    "产品设计",
    "需求分析",
    "用户研究",
    "新媒体运营",
    "社群运营",
    "活动策划",
    "内容运营",
    "用户运营",
    "开源",
    "技术博客",
)
