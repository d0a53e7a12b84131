"""Jamo-level text for Korean BPE: Hangul syllables as conjoining jamo, and back for display.

A Hangul syllable block is one of 11,172 characters; its jamo are 19 leading consonants (초성), 21
vowels (중성) and 27 trailing consonants (종성), 68 letters in all. Training BPE on jamo lets a
tokenizer learn that 갔 and 가 share ㄱ+ㅏ, which the Korean subword literature compares against
syllable- and byte-level units. :func:`decompose` is exactly Unicode's canonical decomposition (NFD)
of the Hangul syllables U+AC00..U+D7A3 and leaves every other character alone, so accented Latin
letters and compatibility jamo (ㅋㅋ) keep their form.

:func:`recompose` is the display side: pieces learned on jamo show whole syllables where their jamo
form one (ᄀ ᅡ ᆻ → 갔) and keep the rest as jamo, so a piece ``ᆻ다`` reads as "final ㅆ, then 다".

>>> decompose("갔다 ok") == "\\u1100\\u1161\\u11bb\\u1103\\u1161 ok"
True
>>> [hex(ord(c)) for c in decompose("갔")]
['0x1100', '0x1161', '0x11bb']
>>> recompose(decompose("갔다"))
'갔다'
>>> recompose("\\u11bb\\u1103\\u1161")  # final ㅆ, then 다
'ᆻ다'
"""

from __future__ import annotations

import functools
import re
from collections import Counter

_S_BASE, _L_BASE, _V_BASE, _T_BASE = 0xAC00, 0x1100, 0x1161, 0x11A7
_L_COUNT, _V_COUNT, _T_COUNT = 19, 21, 28
_N_COUNT = _V_COUNT * _T_COUNT
_S_COUNT = _L_COUNT * _N_COUNT

_SYLLABLE = re.compile("[\uac00-\ud7a3]")
_CONJOINING = re.compile("[\u1100-\u11ff]")
# a leading consonant and a vowel of the modern set, then an optional modern trailing consonant
_LVT = re.compile("([\u1100-\u1112])([\u1161-\u1175])([\u11a8-\u11c2]?)")


def _jamo_of(syllable: int) -> str:
    lead, rest = divmod(syllable - _S_BASE, _N_COUNT)
    vowel, tail = divmod(rest, _T_COUNT)
    out = chr(_L_BASE + lead) + chr(_V_BASE + vowel)
    return out + chr(_T_BASE + tail) if tail else out


@functools.cache
def _decomposition() -> dict[int, str]:
    """Every syllable's jamo, for str.translate: one C pass over the text (a regex substitution calling
    Python per syllable took ~6x as long and was most of jamo BPE's extra time). Built on first use, not
    at import: every ``tokviz`` command and training child imports this module, few decompose."""
    return {c: _jamo_of(c) for c in range(_S_BASE, _S_BASE + _S_COUNT)}


def _join(m: re.Match) -> str:
    lead = ord(m.group(1)) - _L_BASE
    vowel = ord(m.group(2)) - _V_BASE
    tail = ord(m.group(3)) - _T_BASE if m.group(3) else 0
    return chr(_S_BASE + (lead * _V_COUNT + vowel) * _T_COUNT + tail)


def decompose(text: str) -> str:
    """``text`` with every Hangul syllable as its two or three conjoining jamo (NFD of the syllables
    only); other characters are unchanged."""
    return text.translate(_decomposition())


def recompose(piece: str) -> str:
    """Conjoining jamo that form a whole modern syllable (lead, vowel, optional tail) joined back into
    it; jamo that do not (a lone final consonant, a lead without its vowel) stay as they are.

    >>> recompose("\\u1100\\u1161")   # ᄀ + ᅡ
    '가'
    >>> recompose("\\u1100")          # a lead without its vowel stays a jamo
    'ᄀ'
    """
    if not piece or not any("\u1100" <= ch <= "\u11ff" for ch in piece):
        return piece
    return _LVT.sub(_join, piece)


def has_syllables(text: str) -> bool:
    """Whether ``text`` holds any precomposed Hangul syllable (a jamo model's input must be decomposed)."""
    return _SYLLABLE.search(text) is not None


def has_jamo(text: str) -> bool:
    """Whether ``text`` holds any conjoining jamo (U+1100..U+11FF), such as decomposed text does."""
    return _CONJOINING.search(text) is not None


def decompose_lines(lines):
    """Each line (or block) of a corpus decomposed, lazily (the trainers stream their corpus); a
    :class:`~tokviz.core.bpe.corpus.LinePart` stays a LinePart, so a long line still continues."""
    for line in lines:
        out = decompose(line)
        yield out if type(line) is str else type(line)(out)


def decompose_counts(counts: dict[str, int]) -> Counter:
    """The counts of the decomposed words: each distinct word of ``counts`` decomposed once, the
    counts of words that decompose alike (가 typed as a syllable and as jamo) summed.

    A trainer counts the words of the text as given and decomposes only the distinct ones: far
    fewer characters than decomposing every occurrence. That gives the words of the decomposed text
    because every pre-split tokviz offers cuts syllables and their jamo alike (both are letters,
    category Lo, and no pattern counts letters or matches one alone). The BPE indexer decomposes
    code points instead (:func:`decompose_words`) unless some word holds jamo already.

    >>> decompose_counts({"갔다": 2, "ok": 1})
    Counter({'\u1100\u1161\u11bb\u1103\u1161': 2, 'ok': 1})
    >>> decompose_counts({"가": 2, "\u1100\u1161": 3})  # the same jamo either way
    Counter({'\u1100\u1161': 5})
    """
    out: Counter = Counter()
    table = _decomposition()
    for word, count in counts.items():
        out[word.translate(table)] += count
    return out


def decompose_words(joined: str, lens):
    """Words laid end to end (``joined``) with their lengths (``lens``, a numpy int array), decomposed:
    the code points of the decomposed words end to end (uint32) and their new lengths. The same as
    decomposing each word, in a few array passes (``str.translate`` looks up every character in a
    dict, and splitting its result makes a string per word).

    >>> import numpy as np
    >>> codes, lens = decompose_words("갔다ok", np.array([2, 2]))
    >>> codes.tobytes().decode("utf-32-le") == decompose("갔다ok"), lens.tolist()
    (True, [5, 2])
    """
    import numpy as np

    lead, vowel, tail, width = _jamo_tables()
    codes = np.frombuffer(joined.encode("utf-32-le"), dtype=np.uint32)
    # a syllable's index, or _S_COUNT for any other character (below the syllables it wraps around)
    index = np.minimum(codes - np.uint32(_S_BASE), np.uint32(_S_COUNT))
    # three columns per character, the ones it does not fill marked by _NO_JAMO and dropped
    cols = np.empty((len(codes), 3), dtype=np.uint32)
    cols[:, 0] = np.where(index < _S_COUNT, lead[index], codes)
    cols[:, 1] = vowel[index]
    cols[:, 2] = tail[index]
    flat = cols.ravel()
    bounds = np.concatenate(([0], np.cumsum(width[index])))
    word_ends = np.cumsum(lens)
    return flat[flat != _NO_JAMO], bounds[word_ends] - bounds[word_ends - lens]


_NO_JAMO = 0xFFFFFFFF  # not a code point
_TABLES: tuple = ()


def _jamo_tables():
    """Per syllable index (and a last row for every other character): its lead, vowel and tail
    jamo (_NO_JAMO where it has none) and how many jamo it has."""
    global _TABLES
    if not _TABLES:
        import numpy as np

        index = np.arange(_S_COUNT + 1)
        lead = (_L_BASE + index // _N_COUNT).astype(np.uint32)
        vowel = (_V_BASE + index % _N_COUNT // _T_COUNT).astype(np.uint32)
        tail = np.where(index % _T_COUNT, _T_BASE + index % _T_COUNT, _NO_JAMO).astype(np.uint32)
        width = 2 + (index % _T_COUNT != 0)
        vowel[-1] = tail[-1] = _NO_JAMO
        width[-1] = 1
        _TABLES = (lead, vowel, tail, width)
    return _TABLES
