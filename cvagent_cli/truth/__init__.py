"""The truthfulness guard: flag facts in an edit that the user never gave us.

Before a proposed edit is shown, :func:`check_edit` compares its new text with the whole
current resume and with everything the user said in the conversation.  Every *fact* in the
new text that appears in neither is returned as a :class:`FactFlag`, so the user is asked
"is it true?" instead of silently getting a fabricated number, date, employer or title.

What counts as a fact (English and Chinese):

* **numbers** – plain numbers and counts with units (``10 engineers``, ``1.5k``, ``带领10人团队``,
  ``日活100万``), multipliers (``3x``, ``3 times``, ``3倍``, ``doubled``, ``翻倍``), English number
  words (``three engineers``) and Chinese numerals in quantity phrases (``两年``, ``十人``,
  ``三倍``; a numeral must be followed by a measure word, so 一起/百度/十分 are not numbers);
* **percentages** – ``40%``, ``40 %``, ``40 percent``, ``30-40%``, ``百分之四十``;
* **money amounts** – ``$2M``, ``USD 2 million``, ``¥500万``, ``500万元``;
* **dates** – ``2019``, ``Mar 2020``, ``2019.03``, ``2019/3``, ``03/2019``, ``2019年3月``, all
  normalised to ``(year, month)``;
* **organizations** – capitalised multi-word names (``Goldman Sachs``, ``Acme Robotics Inc.``),
  well-known single-word employers (``Google``), single capitalised words in an employer
  context (``at X``, ``joined X``, a heading ``### X | Senior Engineer | 2019 – 2021``), and
  Chinese names ending in 公司/集团/大学/学院/研究院/研究所/实验室/银行/医院/科技;
* **job titles** – Title-Case phrases ending in a role noun (Engineer, Manager, Director, …,
  CTO/VP), lower-case ones that carry a seniority word (``senior staff engineer``), and Chinese
  titles ending in 工程师/架构师/经理/总监/主管/负责人/组长/专家/… (首席… included).

When is a fact supported?  The *support* is the resume text, every user message and the
``old_text`` being replaced, all NFKC-normalised (full-width digits and ％ are the ASCII ones).

* Numbers are compared by value: ``1,000`` ≡ ``1000`` ≡ ``1k`` ≡ ``一千``; ``2M`` ≡ ``2 million`` ≡
  ``2,000,000`` ≡ ``200万``; ``40 %`` ≡ ``40%`` ≡ ``40 percent`` ≡ ``百分之四十``; ``3`` ≡ ``three`` ≡ ``三``.
  A percentage needs a percentage of the same value and a multiplier a multiplier; plain numbers
  and amounts are supported by any number of the same value, including the bare coefficient of
  a scaled one (``$2M`` in the resume supports a later ``2``).  The unit is deliberately *not*
  compared (``10 engineers`` is supported by ``a team of 10``), so a moved or reworded number is
  never flagged.
* Decision on number words: digits and words are interchangeable both ways, in English and
  Chinese; ``one``/``一`` are never extracted (they are mostly articles: 一个, one of).
  Ordinals (1st, 第三), Markdown list markers (``1.``, ``1、``, ``(1)``), version numbers
  (``3.10.2``), identifiers with digits (``S3``, ``H100``, ``GPT-4``, ``5G``, ``3D``), URLs, e-mail
  addresses and phone numbers are not facts.
* A date ``(year, month)`` needs the same year and month somewhere in the support; a bare year
  needs that year.  A **changed date range** is stricter: when ``old_text`` holds the range
  ``2019.03 - 2021.06`` and the new text keeps one end but changes the other
  (``2018.03 - 2021.06``, or ``2019.03 - Present``), the changed end is flagged unless the user's
  messages contain it (or the resume holds exactly the new range) — the same date elsewhere in
  the resume (another job) does not justify stretching this one.
* An English organization is supported when each of its significant words (legal suffixes such
  as Inc/Ltd/LLC and connectors such as "of" ignored) occurs in the support, case-insensitively;
  a Chinese one when its name without 有限公司/科技/集团… (or its full name) occurs.
* A title must occur as a phrase (``Sr.`` ≡ ``Senior``, ``VP`` ≡ ``Vice President``), so
  ``Senior Staff Engineer`` is flagged even when ``Staff Engineer`` and ``Senior`` occur apart.

This is a heuristic: it favours asking about a true fact over missing a fabricated one, but
avoids flagging common capitalised words (Led, Built, Experience) and unchanged text.
"""

from __future__ import annotations

from cvagent_cli.truth.facts import FactFlag, FactKind
from cvagent_cli.truth.support import check_edit

__all__ = ["FactFlag", "FactKind", "check_edit"]
