"""Chinese numerals, the one vocabulary the analyzer's metrics rule (analysis/rules/metrics.py)
and the fabrication guard's number facts (truth/numbers.py) both read.

Each constant is a string of characters, in this order, so it can sit inside a regex class
(``f"[{ZH_DIGITS}{ZH_POWERS}]+"``).  The two readers take different parts on purpose: a count
in a resume bullet ("十人团队", "三倍") is written with digits and powers of ten, while the guard
also reads years written digit by digit ("二〇一九") and sums in 亿.
"""

from __future__ import annotations

__all__ = ["ZH_DIGITS", "ZH_HUNDRED_MILLION", "ZH_POWERS", "ZH_ZEROS"]

#: One to nine; 两 is two before a measure word (两名, 两年).
ZH_DIGITS = "一二两三四五六七八九"
#: Ten, hundred, thousand, ten thousand.
ZH_POWERS = "十百千万"
#: A hundred million.
ZH_HUNDRED_MILLION = "亿"
#: Zero, in prose (零) and in a year written digit by digit (二〇一九).
ZH_ZEROS = "零〇"
