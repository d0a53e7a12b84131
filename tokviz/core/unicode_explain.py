"""Explanations of grapheme clusters in sentences a reader follows: what a Hangul syllable is built
from, what each code point of an emoji sequence does (ZWJ, VS16, skin tones, keycaps, flags), how
combining marks and conjoining jamo compose.

The analysis (code points, jamo, grapheme kinds) is :mod:`tokviz.core.unicode`; this module only
words it. Each line is a :class:`~tokviz.core.sentences.Sentence` in the translation context
:data:`CONTEXT`, so the Inspector shows it in the interface's language (``QCoreApplication.translate``
as the hook) while core stays Qt-free; region names and jamo roles are sentences of their own inside
them. The ``explain_*`` functions give the English lines.

>>> [g.text for g in graphemes("각👍🏽\\r\\n")]
['각', '👍🏽', '\\r\\n']
>>> explain_emoji("🇰🇷")[0]
'regional indicators K + R = flag of South Korea'
>>> ko = {"regional indicators {a} + {b} = {meaning}": "지역 표시 기호 {a} + {b} = {meaning}",
...       "flag of {region}": "{region} 국기", "South Korea": "대한민국"}
>>> emoji_sentences("🇰🇷")[0].render(lambda context, t: ko.get(t, t))
'지역 표시 기호 K + R = 대한민국 국기'
"""

from __future__ import annotations

import unicodedata
from dataclasses import dataclass
from functools import lru_cache

import regex

from tokviz.core.encoding import char_byte_starts
from tokviz.core.errors import check_text
from tokviz.core.sentences import Sentence, Translate, templates_in
from tokviz.core.unicode import (
    CANCEL_TAG,
    KEYCAP,
    VS15,
    VS16,
    ZWJ,
    GraphemeKind,
    _emoji_presented,
    _is_compat_jamo,
    _is_pictographic,
    _is_tag,
    _ri_letter,
    code_point_label,
    code_point_name,
    decompose_hangul,
    describe_code_point,
    display_char,
    grapheme_kind,
    is_hangul_syllable,
    is_regional_indicator,
    is_skin_tone,
    jamo_role,
)

CONTEXT = "Unicode"


def _s(template: str, **fields) -> Sentence:
    """A sentence of this module (its translation context)."""
    return Sentence(template, fields, CONTEXT)


def _name(text: str) -> Sentence:
    """A name translated on its own (a region, a jamo role): the template is the name."""
    return Sentence(text.replace("{", "{{").replace("}", "}}"), {}, CONTEXT)


def _plain(text: str) -> Sentence:
    """A line with nothing to translate (a code point's label and Unicode name)."""
    return Sentence("{text}", {"text": text}, CONTEXT)


def render_all(sentences, translate: Translate | None = None) -> list[str]:
    """The lines of ``sentences`` (translated when ``translate`` is given)."""
    return [s.render(translate) for s in sentences]


# --------------------------------------------------------------------------------------------
# Hangul
# --------------------------------------------------------------------------------------------

JAMO_ROLE_WORDS = {
    "choseong": "initial consonant",
    "jungseong": "vowel",
    "jongseong": "final consonant",
}


def _jamo_short_name(ch: str) -> str:
    # "HANGUL CHOSEONG KIYEOK" -> "KIYEOK"
    return code_point_name(ch).split(" ", 2)[-1]


def hangul_syllable_sentences(ch: str) -> list[Sentence]:
    """The syllable and the jamo it is built from (see :func:`explain_hangul_syllable`)."""
    jamo = decompose_hangul(ch)
    if jamo is None:
        return [_plain(describe_code_point(ch))]

    def part(j: str) -> str:
        return f"{_jamo_short_name(j)} ({code_point_label(j)})"

    built = " + ".join(jamo.compat)
    if jamo.jongseong:
        line = _s("= {jamo}: choseong {initial} + jungseong {vowel} + jongseong {final}", jamo=built,
                  initial=part(jamo.choseong), vowel=part(jamo.jungseong), final=part(jamo.jongseong))
    else:
        line = _s("= {jamo}: choseong {initial} + jungseong {vowel}", jamo=built,
                  initial=part(jamo.choseong), vowel=part(jamo.jungseong))
    return [_plain(describe_code_point(ch)), line]


def explain_hangul_syllable(ch: str) -> list[str]:
    """Sentences for one precomposed syllable: the syllable and the jamo it is built from.

    >>> explain_hangul_syllable("값")[1]
    '= ㄱ + ㅏ + ㅄ: choseong KIYEOK (U+1100) + jungseong A (U+1161) + jongseong PIEUP-SIOS (U+11B9)'
    """
    return render_all(hangul_syllable_sentences(ch))


# --------------------------------------------------------------------------------------------
# Emoji sequences
# --------------------------------------------------------------------------------------------

# Region names for flag explanations (ISO 3166-1 alpha-2). Not exhaustive: other codes are
# explained as "flag for region XY", which is what the emoji means anyway.
_REGIONS = dict(
    item.split("=")
    for item in (
        "KR=South Korea;KP=North Korea;JP=Japan;CN=China;TW=Taiwan;HK=Hong Kong;MO=Macao;MN=Mongolia;"
        "VN=Vietnam;TH=Thailand;PH=Philippines;ID=Indonesia;MY=Malaysia;SG=Singapore;KH=Cambodia;"
        "LA=Laos;MM=Myanmar;IN=India;PK=Pakistan;BD=Bangladesh;LK=Sri Lanka;NP=Nepal;"
        "KZ=Kazakhstan;UZ=Uzbekistan;AF=Afghanistan;IR=Iran;IQ=Iraq;SA=Saudi Arabia;"
        "AE=United Arab Emirates;QA=Qatar;KW=Kuwait;IL=Israel;PS=Palestinian Territories;JO=Jordan;"
        "LB=Lebanon;SY=Syria;TR=Türkiye;GE=Georgia;AM=Armenia;AZ=Azerbaijan;"
        "US=United States;CA=Canada;MX=Mexico;BR=Brazil;AR=Argentina;CL=Chile;CO=Colombia;PE=Peru;"
        "VE=Venezuela;UY=Uruguay;PY=Paraguay;BO=Bolivia;EC=Ecuador;CU=Cuba;JM=Jamaica;"
        "GB=United Kingdom;IE=Ireland;FR=France;DE=Germany;IT=Italy;ES=Spain;PT=Portugal;"
        "NL=Netherlands;BE=Belgium;LU=Luxembourg;CH=Switzerland;AT=Austria;DK=Denmark;NO=Norway;"
        "SE=Sweden;FI=Finland;IS=Iceland;EE=Estonia;LV=Latvia;LT=Lithuania;PL=Poland;CZ=Czechia;"
        "SK=Slovakia;HU=Hungary;RO=Romania;BG=Bulgaria;GR=Greece;HR=Croatia;SI=Slovenia;RS=Serbia;"
        "BA=Bosnia & Herzegovina;ME=Montenegro;MK=North Macedonia;AL=Albania;UA=Ukraine;"
        "BY=Belarus;MD=Moldova;RU=Russia;CY=Cyprus;MT=Malta;"
        "EG=Egypt;MA=Morocco;DZ=Algeria;TN=Tunisia;NG=Nigeria;GH=Ghana;KE=Kenya;ET=Ethiopia;"
        "TZ=Tanzania;UG=Uganda;ZA=South Africa;SN=Senegal;CM=Cameroon;CI=Côte d’Ivoire;"
        "AU=Australia;NZ=New Zealand;FJ=Fiji;EU=European Union;UN=United Nations"
    ).split(";")
)
_SUBDIVISIONS = {"gbeng": "England", "gbsct": "Scotland", "gbwls": "Wales"}


def region_names() -> tuple[str, ...]:
    """Every region and subdivision name a flag explanation can show (each translated on its own)."""
    return tuple(_REGIONS.values()) + tuple(_SUBDIVISIONS.values())


def _flag_sentence(cluster: str) -> Sentence | None:
    letters = [c for c in cluster if is_regional_indicator(c)]
    if len(letters) == 2 and len(cluster) == 2:
        code = _ri_letter(letters[0]) + _ri_letter(letters[1])
        region = _REGIONS.get(code)
        meaning = _s("flag of {region}", region=_name(region)) if region else _s("flag for region {code}", code=code)
        return _s("regional indicators {a} + {b} = {meaning}", a=code[0], b=code[1], meaning=meaning)
    if len(letters) == 1 and len(cluster) == 1:
        return _s("a lone regional indicator {letter}: two of them make a flag, one alone shows as a letter",
                  letter=_ri_letter(letters[0]))
    tags = [c for c in cluster if _is_tag(c) and c != CANCEL_TAG]
    if cluster.startswith("\U0001f3f4") and tags:
        code = "".join(chr(ord(c) - 0xE0000) for c in tags)
        place = _SUBDIVISIONS.get(code)
        meaning = (_s("flag of {region}", region=_name(place)) if place
                   else _s("flag for subdivision {code}", code=code))
        return _s("black flag + tag letters {code!r} + CANCEL TAG = {meaning}", code=code, meaning=meaning)
    return None


def _emoji_code_point_line(ch: str) -> Sentence:
    if ch == ZWJ:
        return _s("ZWJ (U+200D) joins the next emoji")
    if ch == VS16:
        return _s("VS16 (U+FE0F) asks for emoji presentation")
    if ch == VS15:
        return _s("VS15 (U+FE0E) asks for text presentation")
    if ch == KEYCAP:
        return _s("{mark} U+20E3 COMBINING ENCLOSING KEYCAP draws a keycap around the character before it",
                  mark=display_char(KEYCAP))
    if ch == CANCEL_TAG:
        return _s("CANCEL TAG (U+E007F) ends the tag sequence")
    if _is_tag(ch):
        return _s("tag {letter!r} ({label}) spells the region code", letter=chr(ord(ch) - 0xE0000),
                  label=code_point_label(ch))
    if is_skin_tone(ch):
        tone = code_point_name(ch).rsplit(" ", 1)[-1].lower()  # "type-4"
        return _s("{char} {label} skin-tone modifier (Fitzpatrick {tone})", char=ch, label=code_point_label(ch),
                  tone=tone)
    return _plain(describe_code_point(ch))


def emoji_sentences(cluster: str) -> list[Sentence]:
    """The lines of :func:`explain_emoji` as sentences (for translation)."""
    lines: list[Sentence] = []
    pictures = [c for c in cluster if _is_pictographic(c)]
    tones = [c for c in cluster if is_skin_tone(c)]
    flag = _flag_sentence(cluster)
    if flag:
        lines.append(flag)
    elif KEYCAP in cluster:
        parts = ["VS16" if c == VS16 else code_point_name(c) if c == KEYCAP else c for c in cluster]
        lines.append(_s("keycap: {parts}", parts=" + ".join(parts)))
    elif ZWJ in cluster and len(pictures) >= 2:
        names = " + ".join(code_point_name(c).lower() for c in pictures)
        lines.append(_s("ZWJ sequence of {count} emoji ({names}): one picture where the font supports it, "
                        "otherwise shown side by side", count=len(pictures), names=names))
    elif tones:
        tone = code_point_name(tones[0]).rsplit(" ", 1)[-1].lower()
        if cluster[0] == tones[0]:
            lines.append(_s("a skin-tone modifier on its own: shown as a colour swatch"))
        elif not _is_pictographic(cluster[0]):
            lines.append(_s("a skin-tone modifier after a character that is not an emoji: shown as a colour swatch"))
        else:
            lines.append(_s("{name} with a {tone} skin tone", name=code_point_name(cluster[0]).lower(), tone=tone))
    elif pictures and not _emoji_presented(cluster) and VS15 not in cluster:
        lines.append(_s("shown as text by default; VS16 (U+FE0F) after it would ask for the emoji picture"))
    last = len(cluster) - 1
    for i, c in enumerate(cluster):
        if c == ZWJ and i == last:
            lines.append(_s("ZWJ (U+200D) at the end: nothing follows for it to join"))
        else:
            lines.append(_emoji_code_point_line(c))
    return lines


def explain_emoji(cluster: str) -> list[str]:
    """Human sentences explaining an emoji grapheme cluster, a summary line first when the
    cluster is a sequence (ZWJ, flag, keycap, skin tone), then one line per code point.

    >>> explain_emoji("🇰🇷")[0]
    'regional indicators K + R = flag of South Korea'
    >>> explain_emoji("1️⃣")[0]
    'keycap: 1 + VS16 + COMBINING ENCLOSING KEYCAP'
    >>> explain_emoji("👍🏽")[1:]
    ['👍 U+1F44D THUMBS UP SIGN', '🏽 U+1F3FD skin-tone modifier (Fitzpatrick type-4)']
    """
    return render_all(emoji_sentences(cluster))


# --------------------------------------------------------------------------------------------
# Grapheme clusters
# --------------------------------------------------------------------------------------------

def _hangul_sentences(cluster: str) -> list[Sentence]:
    if len(cluster) == 1 and is_hangul_syllable(cluster):
        return hangul_syllable_sentences(cluster)
    if len(cluster) == 1 and _is_compat_jamo(cluster):
        return [_plain(describe_code_point(cluster)),
                _s("a standalone letter (compatibility jamo), not part of a syllable")]
    lines = []
    for c in cluster:
        role = jamo_role(c)
        line = describe_code_point(c)
        lines.append(_s("{line} ({role})", line=line, role=_name(JAMO_ROLE_WORDS[role])) if role else _plain(line))
    composed = unicodedata.normalize("NFC", cluster)
    if composed != cluster and len(composed) == 1:
        lines.append(_s("written as {count} conjoining jamo; NFC composes them into {char} {label}",
                        count=len(cluster), char=composed, label=code_point_label(composed)))
    return lines


def _combining_sentences(cluster: str) -> list[Sentence]:
    lines = []
    for c in cluster:
        line = describe_code_point(c)
        if unicodedata.category(c).startswith("M"):
            lines.append(_s("{line} (combining mark: joins the character before it)", line=line))
        else:
            lines.append(_plain(line))
    composed = unicodedata.normalize("NFC", cluster)
    if composed != cluster and len(composed) == 1:
        lines.append(_s("NFC composes them into {char} {label}", char=composed, label=code_point_label(composed)))
    return lines


def grapheme_sentences(cluster: str, kind: GraphemeKind | None = None) -> list[Sentence]:
    """The lines of :func:`explain_grapheme` as sentences (for translation)."""
    kind = kind or grapheme_kind(cluster)
    if kind in ("emoji_zwj", "flag", "keycap", "emoji_modifier", "emoji"):
        return emoji_sentences(cluster)
    if kind == "text" and any(_is_pictographic(c) for c in cluster):
        return emoji_sentences(cluster)  # a pictograph in text presentation (©, ☺︎)
    if kind == "hangul":
        return _hangul_sentences(cluster)
    if kind == "combining":
        return _combining_sentences(cluster)
    if cluster == "\r\n":
        return [_s("CR LF (U+000D U+000A): a Windows line break, one grapheme cluster")]
    return [_plain(describe_code_point(c)) for c in cluster]


def explain_grapheme(cluster: str, kind: GraphemeKind | None = None) -> list[str]:
    """Human sentences for one grapheme cluster (see :class:`GraphemeInfo`).

    >>> explain_grapheme("e\u0301")[-1]
    'NFC composes them into é U+00E9'
    """
    return render_all(grapheme_sentences(cluster, kind))


@lru_cache(maxsize=16384)
def cluster_description(cluster: str) -> tuple[GraphemeKind, tuple[Sentence, ...], tuple[str, ...]]:
    """The kind of one cluster, its explanation's sentences and their English lines, cached: texts
    repeat the same clusters (syllables, letters, spaces) over and over, and describing each
    distinct cluster once makes :func:`graphemes` on a long Korean text
    several times faster."""
    kind = grapheme_kind(cluster)
    sentences = tuple(grapheme_sentences(cluster, kind))
    return kind, sentences, tuple(render_all(sentences))


def templates() -> tuple[str, ...]:
    """Every English sentence template of this module, then every region name, for translators and tests."""
    import sys

    return (templates_in(sys.modules[__name__], "_s") + tuple(JAMO_ROLE_WORDS.values()) + region_names())


@dataclass(frozen=True)
class GraphemeInfo:
    """One grapheme cluster (what a reader sees as one character), per Unicode's extended
    grapheme cluster rules (regex ``\\X``)."""

    index: int
    text: str
    start: int  # character span [start, end)
    end: int
    byte_start: int  # UTF-8 byte span [byte_start, byte_end)
    byte_end: int
    kind: GraphemeKind
    explanation: list[str]  # in English; :meth:`explain` in another language
    sentences: tuple[Sentence, ...] = ()

    def explain(self, translate: Translate | None = None) -> list[str]:
        """The explanation's lines, translated by ``translate(context, template)`` (see
        :mod:`tokviz.core.sentences`); English without it."""
        return [s.render(translate) for s in self.sentences] if translate is not None else list(self.explanation)


_CLUSTER = regex.compile(r"\X")


def graphemes(text: str) -> list[GraphemeInfo]:
    """The grapheme clusters of ``text`` with character and byte spans, kind and explanation.

    >>> [(g.start, g.end, g.byte_start, g.byte_end, g.kind) for g in graphemes("e\\u0301🇰🇷")]
    [(0, 2, 0, 3, 'combining'), (2, 4, 3, 11, 'flag')]
    """
    check_text(text)
    starts = char_byte_starts(text)
    out: list[GraphemeInfo] = []
    for i, m in enumerate(_CLUSTER.finditer(text)):
        cluster = m.group()
        kind, sentences, lines = cluster_description(cluster)
        out.append(
            GraphemeInfo(
                index=i,
                text=cluster,
                start=m.start(),
                end=m.end(),
                byte_start=starts[m.start()],
                byte_end=starts[m.end()],
                kind=kind,
                explanation=list(lines),
                sentences=sentences,
            )
        )
    return out
