"""The writing systems cvagent reads, as regex character-class bodies: one place for the
Unicode ranges of Chinese (and its neighbours), imported everywhere else.

Each constant is the *body* of a character class (``f"[{HAN}]"``), so classes can be joined
(``f"[{HAN_EXT_A}{HAN}]"``) and negated (``f"[^{IDEOGRAPHS}]"``).  The ranges mean different
things and stay apart by name:

- ideographs: ``HAN`` (the CJK Unified Ideographs block, where nearly every Chinese character of
  a resume lives), ``HAN_EXT_A``, ``HAN_COMPAT``, ``HAN_SUPPLEMENTARY`` (extensions B and on);
- other CJK scripts: ``KANA``, ``HANGUL``, ``CJK_RADICALS``;
- punctuation and forms: ``CJK_SYMBOLS`` (``、。「」`` and the ideographic space),
  ``FULLWIDTH`` (``，：！０-９Ａ-Ｚ`` and the half-width katakana), ``FULLWIDTH_PUNCT``.

It sits at the base of the package because the lowest user, ``store/textio.py`` (which tells
GB18030 from a mis-decoded code page), is below the document layer.  tests/test_grammar.py
fails when a CJK range literal appears anywhere else in the package (it lists the few modules
not moved here yet, with counts that may only go down).
"""

from __future__ import annotations

import re
import unicodedata
from typing import TYPE_CHECKING

__all__ = [
    "CJK_BMP",
    "CJK_RADICALS",
    "CJK_SYMBOLS",
    "FULLWIDTH",
    "FULLWIDTH_DIGITS",
    "FULLWIDTH_PUNCT",
    "GENERAL_PUNCT",
    "HAN",
    "HANGUL",
    "HAN_COMPAT",
    "HAN_EXT_A",
    "HAN_RE",
    "HAN_SUPPLEMENTARY",
    "IDEOGRAPHS",
    "IDEOGRAPH_RE",
    "KANA",
    "TERMINAL_WIDE",
    "WIDE_TEXT",
    "YIJING",
    "ZH_SHARE",
    "is_east_asian",
    "language_of",
]

# -- ideographs ----------------------------------------------------------------------------

#: CJK Unified Ideographs (U+4E00–U+9FFF): the Chinese characters of nearly every resume.
HAN = "\u4e00-\u9fff"
#: CJK Unified Ideographs Extension A (rare characters, some in personal names).
HAN_EXT_A = "\u3400-\u4dbf"
#: CJK Compatibility Ideographs.
HAN_COMPAT = "\uf900-\ufaff"
#: Extensions B and later, in the supplementary ideographic plane.
HAN_SUPPLEMENTARY = "\U00020000-\U0002ffff"
#: Yijing Hexagram Symbols, the block between Extension A and the unified ideographs (a class
#: written ``\u3400-\u9fff`` takes them in; ``f"[{HAN_EXT_A}{YIJING}{HAN}]"`` says so).
YIJING = "\u4dc0-\u4dff"
#: Han ideographs as the analyzer and the fabrication guard count them: Extension A + unified.
IDEOGRAPHS = HAN_EXT_A + HAN

# -- other CJK scripts ---------------------------------------------------------------------

#: Hiragana and katakana.
KANA = "\u3040-\u30ff"
#: Hangul syllables (the assigned ones, U+AC00–U+D7A3).
HANGUL = "\uac00-\ud7a3"
#: CJK Radicals Supplement, Kangxi radicals and ideographic description characters.
CJK_RADICALS = "\u2e80-\u2fff"

# -- punctuation and forms -----------------------------------------------------------------

#: CJK Symbols and Punctuation, from the ideographic space U+3000 (``、。〈〉「」【】〔〕``).
CJK_SYMBOLS = "\u3000-\u303f"
#: Halfwidth and Fullwidth Forms (``，：！（）０-９Ａ-Ｚ`` and half-width katakana).
FULLWIDTH = "\uff00-\uffef"
#: The full-width digits ``０-９``.
FULLWIDTH_DIGITS = "\uff10-\uff19"
#: The full-width ASCII punctuation in that block (``！＂＃…／`` and ``：；＜＝＞？＠``).
FULLWIDTH_PUNCT = "\uff01-\uff0f\uff1a-\uff20"
#: General Punctuation's dashes, quotes and bullets (U+2010–U+2027: ``‐–—‘’“”•…``), which the
#: Chinese code pages encode too.
GENERAL_PUNCT = "\u2010-\u2027"
#: Characters set wide in a PDF line: radicals, CJK punctuation, ideographs (Extension A to the
#: unified block), compatibility ideographs and full-width forms.
WIDE_TEXT = CJK_RADICALS + CJK_SYMBOLS + HAN_EXT_A + YIJING + HAN + HAN_COMPAT + FULLWIDTH
#: Everything from the ideographic space to the end of the unified ideographs, one range
#: (punctuation, kana, bopomofo, Extension A, ideographs): what the token estimate counts as
#: CJK text, with the full-width forms.
CJK_BMP = "\u3000-\u9fff"
#: Characters a terminal draws two cells wide, for breaking chat lines: radicals, CJK
#: punctuation (not the ideographic space), kana, bopomofo, ideographs, Hangul, compatibility
#: ideographs, vertical forms and full-width forms.
TERMINAL_WIDE = (
    "\u2e80-\u2fff\u3001-\u303f\u3040-\u30ff\u3100-\u31ff\u3400-\u4dbf\u4e00-\u9fff"
    "\ua960-\ua97f\uac00-\ud7af\uf900-\ufaff\ufe30-\ufe4f\uff00-\uffef"
)

# -- compiled, on first use ---------------------------------------------------------------

if TYPE_CHECKING:
    #: One character of the unified block (a language hint: "is there Chinese here?").
    HAN_RE: re.Pattern[str]
    #: One Han ideograph, Extension A included (a word, when counting words).
    IDEOGRAPH_RE: re.Pattern[str]

_CLASSES = {"HAN_RE": HAN, "IDEOGRAPH_RE": IDEOGRAPHS}


def __getattr__(name: str) -> re.Pattern[str]:
    """``HAN_RE`` and ``IDEOGRAPH_RE``, compiled when first imported: a class over these
    ranges takes about a millisecond to compile, which a command that reads only state files
    (store/textio imports the strings above) need not pay."""
    if name not in _CLASSES:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    pattern = re.compile(f"[{_CLASSES[name]}]")
    globals()[name] = pattern
    return pattern


def is_east_asian(ch: str) -> bool:
    """A Han character (Extension A included), a Hangul syllable or a kana, by code point
    (cheaper than a regex over these ranges, which costs milliseconds to compile at start-up)."""
    return (
        HAN[0] <= ch <= HAN[-1]
        or HAN_EXT_A[0] <= ch <= HAN_EXT_A[-1]
        or HANGUL[0] <= ch <= HANGUL[-1]
        or KANA[0] <= ch <= KANA[-1]
    )


#: The ideograph each radical is drawn with in Noto Sans CJK SC (``bench/radical_table.py``
#: reads it from the font): the character a PDF meant when its text layer gives the radical.
RADICAL_FORMS = (
    "⺂⺃⺅⺉⺋⺏⺐⺒⺓⺔⺕⺖⺘⺙⺛⺞⺟⺠⺡⺣⺤⺦⺨⺭⺯⺰⺱⺳⺹⺺⺾⻂⻅⻆⻈⻉⻋⻌⻐⻑"
    "⻒⻓⻔⻖⻘⻙⻚⻛⻜⻝⻟⻠⻢⻣⻤⻥⻦⻧⻨⻩⻪⻫⻬⻮⻯⻰⻱⻲⻳⼀⼁⼂⼃⼄⼅⼆⼇⼈⼉⼊"
    "⼋⼌⼍⼎⼏⼐⼑⼒⼓⼔⼕⼖⼗⼘⼙⼚⼛⼜⼝⼞⼟⼠⼡⼢⼣⼤⼥⼦⼧⼨⼩⼪⼫⼬⼭⼮⼯⼰⼱⼲"
    "⼳⼴⼵⼶⼷⼸⼺⼻⼼⼽⼾⼿⽀⽁⽂⽃⽄⽅⽆⽇⽈⽉⽊⽋⽌⽍⽎⽏⽐⽑⽒⽓⽔⽕⽖⽗⽘⽙⽚⽛"
    "⽜⽝⽞⽟⽠⽡⽢⽣⽤⽥⽦⽧⽨⽩⽪⽫⽬⽭⽮⽯⽰⽱⽲⽳⽴⽵⽶⽷⽸⽹⽺⽻⽼⽽⽿⾀⾁⾂⾃⾄"
    "⾅⾆⾇⾈⾉⾊⾋⾌⾍⾎⾏⾐⾑⾒⾔⾕⾖⾗⾘⾙⾚⾛⾜⾝⾞⾟⾠⾡⾢⾣⾤⾥⾦⾧⾨⾩⾪⾫⾬⾭"
    "⾮⾯⾰⾱⾲⾳⾴⾵⾶⾷⾸⾹⾺⾼⾽⾾⾿⿀⿁⿂⿃⿄⿅⿆⿇⿈⿉⿊⿋⿌⿍⿎⿏⿑⿒⿓⿕"
)
RADICAL_IDEOGRAPHS = (
    "乛乚亻刂㔾尣尢巳幺彑彐忄扌攵旡歺母民氵灬爫丬犭礻糹纟罓㓁耂肀艹衤见角讠贝车辶钅長"
    "镸长门阝青韦页风飞食飠饣马骨鬼鱼鸟卤麦黄黾斉齐齿竜龙龜亀龟一丨丶丿乙亅二亠人儿入"
    "八冂冖冫几凵刀力勹匕匚匸十卜卩厂厶又口囗土士夂夊夕大女子宀寸小尢尸屮山巛工己巾干"
    "幺广廴廾弋弓彡彳心戈户手支攴文斗斤方无日曰月木欠止歹殳毋比毛氏气水火爪父爻爿片牙"
    "牛犬玄玉瓜瓦甘生用田疋疒癶白皮皿目矛矢石示禸禾穴立竹米糸缶网羊羽老而耳聿肉臣自至"
    "臼舌舛舟艮色艸虍虫血行衣襾見言谷豆豕豸貝赤走足身車辛辰辵邑酉釆里金長門阜隶隹雨靑"
    "非面革韋韭音頁風飛食首香馬高髟鬥鬯鬲鬼魚鳥鹵鹿麥麻黃黍黑黹黽鼎鼓鼠齊齒龍龠"
)
_RADICALS = str.maketrans(dict(zip(RADICAL_FORMS, RADICAL_IDEOGRAPHS, strict=True)))


def unify_radical(ch: str) -> str:
    """The ideograph a radical stands for, when a PDF's text layer gives the radical: fonts
    that share one glyph between a radical and an ideograph (Noto Sans CJK and Source Han
    Sans, as Chromium embeds them) often map the glyph back to the radical, so "工作经历" is
    extracted as "⼯作经历" (U+2F2F), which looks the same and matches nothing.  A radical
    becomes the ideograph drawn with the same glyph (else its compatibility mapping, if it
    has one); any other character is returned as it is."""
    if not CJK_RADICALS[0] <= ch <= CJK_RADICALS[-1]:
        return ch
    unified = ch.translate(_RADICALS)
    return unified if unified != ch else unicodedata.normalize("NFKC", ch)


# -- language ------------------------------------------------------------------------------

#: A text is Chinese when Han characters are at least this share of its words.
ZH_SHARE = 0.3


def language_of(han: int, words: int) -> str:
    """``zh`` when ``han`` Han characters make at least ``ZH_SHARE`` of ``words`` words (each
    Han character counted as a word), else ``en``: the resume's language, whether it comes
    from Markdown (``ResumeDocument.language``) or from a JSON Resume file."""
    return "zh" if han and han >= words * ZH_SHARE else "en"
