"""The layers under a text that tokenizers cut through: grapheme clusters, code points, UTF-8 bytes
and, for Hangul syllables, the jamo they are built from.

A token boundary can fall anywhere in these layers: between two syllables, between the three UTF-8
bytes of one syllable, or inside an emoji ZWJ sequence. The Inspector draws each layer from the
functions here and from :func:`tokviz.core.unicode_explain.graphemes` (clusters with the sentences
that explain them, so it sits above this module); they are Qt-free and work on any text without lone
surrogates (those raise :class:`~tokviz.core.errors.InvalidTextError`, since they have no UTF-8 form).

>>> decompose_hangul("값").compat
('ㄱ', 'ㅏ', 'ㅄ')
>>> [(b.value, b.role) for b in utf8_bytes("a각")]
[(97, 'ascii'), (234, 'lead'), (176, 'continuation'), (129, 'continuation')]
"""

from __future__ import annotations

import unicodedata
from dataclasses import dataclass
from functools import lru_cache
from typing import Literal

import regex

from tokviz.core.display import CONTROL_NAMES as _CONTROLS
from tokviz.core.display import invisible_marker  # the markers live in core.display
from tokviz.core.encoding import char_byte_starts
from tokviz.core.errors import check_text

# --------------------------------------------------------------------------------------------
# Code points
# --------------------------------------------------------------------------------------------

def code_point_label(ch: str) -> str:
    """``U+AC12``-style label (at least four hex digits).

    >>> code_point_label("😀"), code_point_label("a")
    ('U+1F600', 'U+0061')
    """
    return f"U+{ord(ch):04X}"


@lru_cache(maxsize=65536)
def code_point_name(ch: str) -> str:
    """The character's Unicode name, a readable alias for controls, or a ``<...>`` label.

    Names come from Python's ``unicodedata`` (Unicode 14.0 in Python 3.11); characters assigned
    later (the regex module knows them) read ``<newer than Unicode 14.0.0>``, unassigned code
    points ``<unassigned>``.

    >>> code_point_name("값"), code_point_name("\\t"), code_point_name("\\x80")
    ('HANGUL SYLLABLE GABS', 'CHARACTER TABULATION', '<control-0080>')
    >>> code_point_name("\\ue000"), code_point_name("\\U000e0000")
    ('<private-use-E000>', '<unassigned>')
    """
    name = unicodedata.name(ch, "")
    if name:
        return name
    o = ord(ch)
    category = unicodedata.category(ch)
    if category == "Cc":
        return _CONTROLS[o][1] if o in _CONTROLS else f"<control-{o:04X}>"
    if category == "Co":
        return f"<private-use-{o:04X}>"
    if category == "Cs":
        return f"<surrogate-{o:04X}>"
    if o & 0xFFFE == 0xFFFE or 0xFDD0 <= o <= 0xFDEF:
        return f"<noncharacter-{o:04X}>"
    if _UNASSIGNED.match(ch) is None:
        # assigned in the newer Unicode the regex module knows (recent emoji such as U+1FAE8)
        return f"<newer than Unicode {unicodedata.unidata_version}>"
    return "<unassigned>"


_UNASSIGNED = regex.compile(r"\p{Cn}")


@dataclass(frozen=True)
class CodePointInfo:
    """One code point of a text, with the UTF-8 bytes it occupies."""

    index: int  # character index in the text
    char: str
    codepoint: int
    label: str  # "U+AC12"
    name: str
    category: str  # Unicode general category, e.g. "Lo", "Mn", "Cc"
    utf8: bytes
    byte_start: int
    byte_end: int


def code_points(text: str) -> list[CodePointInfo]:
    """Every code point of ``text`` with its name and UTF-8 byte span.

    >>> [(c.label, c.name, c.utf8.hex(" "), c.byte_start) for c in code_points("é값")]
    [('U+00E9', 'LATIN SMALL LETTER E WITH ACUTE', 'c3 a9', 0), ('U+AC12', 'HANGUL SYLLABLE GABS', 'ea b0 92', 2)]
    """
    data = check_text(text)
    starts = char_byte_starts(text)
    return [
        CodePointInfo(
            index=i,
            char=ch,
            codepoint=ord(ch),
            label=code_point_label(ch),
            name=code_point_name(ch),
            category=unicodedata.category(ch),
            utf8=data[starts[i] : starts[i + 1]],
            byte_start=starts[i],
            byte_end=starts[i + 1],
        )
        for i, ch in enumerate(text)
    ]


# --------------------------------------------------------------------------------------------
# UTF-8 bytes
# --------------------------------------------------------------------------------------------

ByteRole = Literal["ascii", "lead", "continuation"]


@dataclass(frozen=True)
class ByteInfo:
    """One UTF-8 byte: ``ascii`` (0xxxxxxx, a whole character), ``lead`` (11xxxxxx, starts a
    2-4 byte character) or ``continuation`` (10xxxxxx)."""

    offset: int
    value: int
    role: ByteRole
    char_index: int


def byte_role(value: int) -> ByteRole:
    """Role of a byte value inside well-formed UTF-8.

    >>> byte_role(0x41), byte_role(0xEA), byte_role(0xB0)
    ('ascii', 'lead', 'continuation')
    """
    if value < 0x80:
        return "ascii"
    if value < 0xC0:
        return "continuation"
    return "lead"


def utf8_bytes(text: str) -> list[ByteInfo]:
    """Every UTF-8 byte of ``text`` with its role and the character it belongs to."""
    data = check_text(text)
    out: list[ByteInfo] = []
    char_index = -1
    for offset, value in enumerate(data):
        role = byte_role(value)
        if role != "continuation":
            char_index += 1
        out.append(ByteInfo(offset, value, role, char_index))
    return out


# --------------------------------------------------------------------------------------------
# Hangul
# --------------------------------------------------------------------------------------------

# Unicode's Hangul syllable composition (The Unicode Standard, section 3.12):
# S = SBase + (L * VCount + V) * TCount + T
S_BASE, L_BASE, V_BASE, T_BASE = 0xAC00, 0x1100, 0x1161, 0x11A7
L_COUNT, V_COUNT, T_COUNT = 19, 21, 28
N_COUNT = V_COUNT * T_COUNT  # 588 syllables per leading consonant
S_COUNT = L_COUNT * N_COUNT  # 11,172 precomposed syllables

# Hangul Compatibility Jamo (U+3130 block): the standalone letters Koreans see and type; the
# conjoining jamo above are what NFD produces. Same order as the L / V / T indices.
COMPAT_CHOSEONG = "ㄱㄲㄴㄷㄸㄹㅁㅂㅃㅅㅆㅇㅈㅉㅊㅋㅌㅍㅎ"
COMPAT_JUNGSEONG = "ㅏㅐㅑㅒㅓㅔㅕㅖㅗㅘㅙㅚㅛㅜㅝㅞㅟㅠㅡㅢㅣ"
COMPAT_JONGSEONG = "ㄱㄲㄳㄴㄵㄶㄷㄹㄺㄻㄼㄽㄾㄿㅀㅁㅂㅄㅅㅆㅇㅈㅊㅋㅌㅍㅎ"  # T index 1..27


@dataclass(frozen=True)
class HangulJamo:
    """A precomposed Hangul syllable split into its conjoining jamo."""

    syllable: str
    choseong: str  # initial consonant, U+1100..U+1112
    jungseong: str  # vowel, U+1161..U+1175
    jongseong: str | None  # final consonant, U+11A8..U+11C2, None for open syllables
    compat: tuple[str, ...]  # the same letters as compatibility jamo, for display
    indices: tuple[int, int, int]  # (L, V, T); T == 0 means no final consonant

    @property
    def jamo(self) -> str:
        """The conjoining jamo as one string (equal to the syllable's NFD)."""
        return self.choseong + self.jungseong + (self.jongseong or "")


def is_hangul_syllable(ch: str) -> bool:
    return len(ch) == 1 and S_BASE <= ord(ch) < S_BASE + S_COUNT


def decompose_hangul(ch: str) -> HangulJamo | None:
    """Jamo of a precomposed Hangul syllable, by the composition formula; None for anything else.

    >>> j = decompose_hangul("각")
    >>> j.indices, [f"U+{ord(c):04X}" for c in j.jamo], j.compat
    ((0, 0, 1), ['U+1100', 'U+1161', 'U+11A8'], ('ㄱ', 'ㅏ', 'ㄱ'))
    >>> decompose_hangul("a") is None
    True
    """
    if not is_hangul_syllable(ch):
        return None
    s = ord(ch) - S_BASE
    l_index, rest = divmod(s, N_COUNT)
    v_index, t_index = divmod(rest, T_COUNT)
    choseong = chr(L_BASE + l_index)
    jungseong = chr(V_BASE + v_index)
    jongseong = chr(T_BASE + t_index) if t_index else None
    compat = (COMPAT_CHOSEONG[l_index], COMPAT_JUNGSEONG[v_index]) + (
        (COMPAT_JONGSEONG[t_index - 1],) if t_index else ()
    )
    return HangulJamo(ch, choseong, jungseong, jongseong, compat, (l_index, v_index, t_index))


def compose_hangul(l_index: int, v_index: int, t_index: int = 0) -> str:
    """The syllable with jamo indices L, V, T (T = 0: no final consonant).

    >>> compose_hangul(0, 0, 18)
    '값'
    """
    if not (0 <= l_index < L_COUNT and 0 <= v_index < V_COUNT and 0 <= t_index < T_COUNT):
        raise ValueError(f"jamo indices out of range: L={l_index} V={v_index} T={t_index}")
    return chr(S_BASE + (l_index * V_COUNT + v_index) * T_COUNT + t_index)


JamoRole = Literal["choseong", "jungseong", "jongseong"]


def jamo_role(ch: str) -> JamoRole | None:
    """Position of a conjoining jamo (including the old-Hangul extension blocks), else None.

    >>> jamo_role("\\u1100"), jamo_role("\\u1161"), jamo_role("\\u11a8"), jamo_role("ㄱ")
    ('choseong', 'jungseong', 'jongseong', None)
    """
    o = ord(ch)
    if 0x1100 <= o <= 0x115F or 0xA960 <= o <= 0xA97F:
        return "choseong"
    if 0x1160 <= o <= 0x11A7 or 0xD7B0 <= o <= 0xD7C6:
        return "jungseong"
    if 0x11A8 <= o <= 0x11FF or 0xD7CB <= o <= 0xD7FB:
        return "jongseong"
    return None


def _is_compat_jamo(ch: str) -> bool:
    return 0x3131 <= ord(ch) <= 0x318E


# --------------------------------------------------------------------------------------------
# Invisible characters
# --------------------------------------------------------------------------------------------

def display_char(ch: str) -> str:
    """How to show one code point on its own: its marker if invisible, combining marks on a
    dotted circle (``◌́``), else the character itself."""
    marker = invisible_marker(ch)
    if marker is not None:
        return marker
    if unicodedata.category(ch).startswith("M"):
        return "\u25cc" + ch
    return ch


def describe_code_point(ch: str) -> str:
    """``👨 U+1F468 MAN``: display form, label and name.

    >>> describe_code_point("\\u0301")
    '◌́ U+0301 COMBINING ACUTE ACCENT'
    """
    return f"{display_char(ch)} {code_point_label(ch)} {code_point_name(ch)}"


# --------------------------------------------------------------------------------------------
# Emoji sequences
# --------------------------------------------------------------------------------------------

ZWJ = "\u200d"
VS15 = "\ufe0e"
VS16 = "\ufe0f"
KEYCAP = "\u20e3"
CANCEL_TAG = "\U000e007f"

_PICTOGRAPHIC = regex.compile(r"\p{Extended_Pictographic}")


def is_regional_indicator(ch: str) -> bool:
    return 0x1F1E6 <= ord(ch) <= 0x1F1FF


def is_skin_tone(ch: str) -> bool:
    return 0x1F3FB <= ord(ch) <= 0x1F3FF


def _is_tag(ch: str) -> bool:
    return 0xE0020 <= ord(ch) <= 0xE007F


def _is_pictographic(ch: str) -> bool:
    return _PICTOGRAPHIC.match(ch) is not None


_EMOJI_PRESENTATION = regex.compile(r"\p{Emoji_Presentation}")


def _emoji_presented(cluster: str) -> bool:
    """Whether the cluster shows as a colour emoji: VS16 asks for it, VS15 asks for text, else
    the characters' default (Emoji_Presentation: 😀 yes, © and ☺ no)."""
    if VS16 in cluster:
        return True
    if VS15 in cluster:
        return False
    return any(_EMOJI_PRESENTATION.match(c) for c in cluster)


def _ri_letter(ch: str) -> str:
    return chr(ord("A") + ord(ch) - 0x1F1E6)


def is_flag_sequence(cluster: str) -> bool:
    """Two regional indicators (🇰🇷), a lone one, or a black flag with tag letters (🏴󠁧󠁢󠁳󠁣󠁴󠁿).

    >>> is_flag_sequence("🇰🇷"), is_flag_sequence("😀")
    (True, False)
    """
    letters = sum(1 for c in cluster if is_regional_indicator(c))
    if letters == len(cluster) and letters in (1, 2):
        return True
    return cluster.startswith("\U0001f3f4") and any(_is_tag(c) and c != CANCEL_TAG for c in cluster)


# --------------------------------------------------------------------------------------------
# Grapheme clusters
# --------------------------------------------------------------------------------------------

GraphemeKind = Literal[
    "hangul", "emoji_zwj", "flag", "keycap", "emoji_modifier", "emoji",
    "combining", "control", "whitespace", "text",
]


def grapheme_kind(cluster: str) -> GraphemeKind:
    """Classify one grapheme cluster (see :data:`GraphemeKind`).

    >>> [grapheme_kind(g) for g in ["각", "👨‍👩‍👧", "🇰🇷", "#️⃣", "👍🏽", "😀", "e\\u0301", "\\x00", "\\r\\n", "a"]]
    ['hangul', 'emoji_zwj', 'flag', 'keycap', 'emoji_modifier', 'emoji', 'combining', 'control', 'whitespace', 'text']
    """
    if cluster.isspace():
        return "whitespace"
    if all(unicodedata.category(c) in ("Cc", "Cf") for c in cluster):
        return "control"
    if KEYCAP in cluster and cluster[0] in "0123456789#*":
        return "keycap"
    if len(cluster) > 1 and is_flag_sequence(cluster):
        return "flag"
    pictures = sum(1 for c in cluster if _is_pictographic(c))
    if ZWJ in cluster and pictures >= 2:
        return "emoji_zwj"
    if any(is_skin_tone(c) for c in cluster):
        return "emoji_modifier"
    if is_regional_indicator(cluster[0]) or (pictures and _emoji_presented(cluster)):
        return "emoji"
    if pictures:
        return "text"  # ©, ☺, ❤ without VS16: text presentation by default
    first = cluster[0]
    if is_hangul_syllable(first) or jamo_role(first) or _is_compat_jamo(first):
        return "hangul"
    if len(cluster) > 1 and any(unicodedata.category(c).startswith("M") for c in cluster):
        return "combining"
    return "text"
