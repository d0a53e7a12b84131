"""Byte layers: one piece of text from the top (what a reader sees) to the bottom (what the model sees).

Rows, aligned on one column per UTF-8 byte::

    grapheme cluster   [        👨‍👩‍👧‍👦         ]
    code point         [👨 U+1F468][ZWJ][👩 ...]
    Hangul jamo        [초성 ㄱ][중성 ㅏ][종성 ㅄ]       (syllables, conjoining jamo of NFD and old Hangul,
                                                     compatibility jamo such as ㅋ)
    UTF-8 byte          F0  9F  91  A8  E2 ...      (lead / continuation marked)
    token id           [    9468       ][ 101 ]       (the token that owns each byte, same colours)

The model for one range is built by :func:`build_layers` (plain Python), the widget only paints it.
"""

from __future__ import annotations

import unicodedata
from dataclasses import dataclass, field

from PySide6.QtCore import QT_TRANSLATE_NOOP, QCoreApplication, QRect, QRectF, QSize, Qt
from PySide6.QtGui import QColor, QFontMetricsF, QPainter, QPalette, QPen
from PySide6.QtWidgets import QToolTip, QWidget

from tokviz.core.display import hex_bytes, visible_piece
from tokviz.core.encoding import Encoding
from tokviz.core.unicode import (
    code_point_name,
    code_points,
    decompose_hangul,
    display_char,
    jamo_role,
    utf8_bytes,
)
from tokviz.core.unicode_explain import graphemes
from tokviz.ui import fonts
from tokviz.ui.token_colors import text_color_on

MAX_LAYER_BYTES = 96  # more columns than this do not fit a screen; the view says what it left out

KIND_LABELS = {  # translated when the layers are built
    "hangul": QT_TRANSLATE_NOOP("ByteLayersView", "Hangul"),
    "emoji_zwj": QT_TRANSLATE_NOOP("ByteLayersView", "ZWJ sequence"),
    "emoji_modifier": QT_TRANSLATE_NOOP("ByteLayersView", "emoji + skin tone"),
    "whitespace": QT_TRANSLATE_NOOP("ByteLayersView", "space"),
    "control": QT_TRANSLATE_NOOP("ByteLayersView", "control"),
    "combining": QT_TRANSLATE_NOOP("ByteLayersView", "combining"),
    "flag": QT_TRANSLATE_NOOP("ByteLayersView", "flag"),
    "keycap": QT_TRANSLATE_NOOP("ByteLayersView", "keycap"),
    "emoji": QT_TRANSLATE_NOOP("ByteLayersView", "emoji"),
    "text": "",
}
JAMO_ROLES = ("초성", "중성", "종성")  # initial consonant, vowel, final consonant
ROLE_INDEX = {"choseong": 0, "jungseong": 1, "jongseong": 2}
BYTE_ROLE_WORDS = {  # the byte tooltip's words for a byte's role, translated when the layers are built
    "lead": QT_TRANSLATE_NOOP("ByteLayersView", "lead byte"),
    "continuation": QT_TRANSLATE_NOOP("ByteLayersView", "continuation byte"),
    "ascii": QT_TRANSLATE_NOOP("ByteLayersView", "ASCII byte"),
}
COMPAT_JAMO_LABEL = QT_TRANSLATE_NOOP("ByteLayersView", "compat. jamo")


def jamo_letter(ch: str) -> str:
    """The letter a conjoining jamo shows on its own: its compatibility jamo when Unicode has one
    of the same name (ᄒ → ㅎ, old Hangul ᆞ → ㆍ), else the jamo itself (a conjoining jamo alone
    draws as a letter in the CJK fonts, but the compatibility form reads better).

    >>> jamo_letter("\u1112"), jamo_letter("\u119e"), jamo_letter("\ua960")
    ('ㅎ', 'ㆍ', 'ꥠ')
    """
    name = code_point_name(ch)
    parts = name.split(" ", 2)
    if len(parts) == 3 and parts[0] == "HANGUL":
        try:
            return unicodedata.lookup("HANGUL LETTER " + parts[2])
        except KeyError:
            pass
    return ch


def is_compat_jamo(ch: str) -> bool:
    """Hangul Compatibility Jamo (U+3131..U+318E): the standalone letters of ㅋㅋ and ㅠㅠ."""
    return 0x3131 <= ord(ch) <= 0x318E


@dataclass(frozen=True)
class Span:
    """Something drawn over the byte columns ``[col_start, col_end)``."""

    col_start: int
    col_end: int
    label: str
    detail: str = ""
    tooltip: str = ""
    token: int = -1  # token index (token row) for colours
    open_left: bool = False  # the token continues before / after the shown range
    open_right: bool = False
    name: str = ""  # code point row: the Unicode name, drawn under the label


@dataclass
class Layers:
    """The rows for the characters ``[char_start, char_end)`` of an Encoding's text."""

    char_start: int = 0
    char_end: int = 0
    byte_start: int = 0
    columns: int = 0
    truncated: bool = False
    graphemes: list[Span] = field(default_factory=list)
    code_points: list[Span] = field(default_factory=list)
    jamo: list[Span] = field(default_factory=list)
    bytes: list[Span] = field(default_factory=list)
    byte_roles: list[str] = field(default_factory=list)
    owners: list[int] = field(default_factory=list)  # token index owning each column, -1 none
    tokens: list[Span] = field(default_factory=list)

    def owner_of(self, byte_hex_label: str) -> list[int]:
        """Token indices owning the columns whose byte is ``byte_hex_label`` (e.g. ``"88"``)."""
        return [self.owners[s.col_start] for s in self.bytes if s.label == byte_hex_label]


def expand_to_graphemes(text: str, start: int, end: int) -> tuple[int, int]:
    """Grow ``[start, end)`` so that it does not cut a grapheme cluster (an emoji ZWJ sequence
    stays whole in the layers even when a token owns only its middle)."""
    lo = max(0, start - 16)
    hi = min(len(text), end + 16)
    for g in graphemes(text[lo:hi]):
        gs, ge = g.start + lo, g.end + lo
        if gs < start < ge:
            start = gs
        if gs < end < ge:
            end = ge
    return start, end


def build_layers(encoding: Encoding, char_start: int, char_end: int, max_bytes: int = MAX_LAYER_BYTES) -> Layers:
    """The rows for characters ``[char_start, char_end)`` of ``encoding.text`` (grown to whole
    grapheme clusters; cut after ``max_bytes`` bytes at a cluster boundary)."""
    text = encoding.text
    # Every character is at least one byte: no need to look further (the text may be megabytes).
    char_end = min(char_end, char_start + max_bytes)
    char_start, char_end = expand_to_graphemes(text, char_start, char_end)
    out = Layers(char_start=char_start, char_end=char_end, byte_start=len(text[:char_start].encode("utf-8")))
    sub = text[char_start:char_end]
    clusters = graphemes(sub)
    kept = []
    for g in clusters:
        if kept and g.byte_end > max_bytes:
            out.truncated = True
            break
        kept.append(g)
    if kept:
        out.char_end = char_start + kept[-1].end
        sub = text[char_start:out.char_end]
    else:
        return out
    out.columns = kept[-1].byte_end
    for g in kept:
        out.graphemes.append(Span(g.byte_start, g.byte_end, g.text if g.kind != "whitespace" and g.kind != "control"
                                  else "".join(display_char(c) for c in g.text),
                                  QCoreApplication.translate("ByteLayersView", KIND_LABELS.get(g.kind, g.kind)),
                                  "\n".join(g.explain(QCoreApplication.translate))))
    for cp in code_points(sub):
        out.code_points.append(Span(cp.byte_start, cp.byte_end, display_char(cp.char), cp.label,
                                    f"{cp.label} {cp.name}", name=cp.name))
        out.jamo.extend(jamo_spans(cp))
    for b in utf8_bytes(sub):
        role = QCoreApplication.translate("ByteLayersView", BYTE_ROLE_WORDS.get(b.role, b.role))
        tip = QCoreApplication.translate("ByteLayersView", "byte {offset}: 0x{hex} = {bits} ({role})").format(
            offset=out.byte_start + b.offset, hex=hex_bytes(bytes([b.value])), bits=f"{b.value:08b}", role=role)
        out.bytes.append(Span(b.offset, b.offset + 1, hex_bytes(bytes([b.value])), b.role, tip))
        out.byte_roles.append(b.role)
    # Which token owns each byte; consecutive bytes of one token form one span on the token row.
    owners = [encoding.token_at_byte(out.byte_start + k) for k in range(out.columns)]
    out.owners = [-1 if o is None else o for o in owners]
    k = 0
    while k < out.columns:
        o = out.owners[k]
        j = k
        while j < out.columns and out.owners[j] == o:
            j += 1
        if o >= 0:
            t = encoding.tokens[o]
            label = str(t.id)
            piece = t.piece
            # the piece as core.display draws it everywhere (·, ⟨CR⟩, ⍽, a ZWJ joined into its emoji), not
            # Python escapes; the code point row above still shows every ZWJ on its own
            detail = visible_piece(piece) if piece is not None else hex_bytes(t.bytes)
            out.tokens.append(Span(
                k, j, label, detail,
                QCoreApplication.translate(
                    "ByteLayersView", "token {n} · id {id}\nbytes {hex}\nbyte span [{start}, {end})").format(
                    n=o + 1, id=t.id, hex=hex_bytes(t.bytes), start=t.byte_start, end=t.byte_end),
                token=o,
                open_left=t.byte_start < out.byte_start + k,
                open_right=t.byte_end > out.byte_start + j,
            ))
        k = j
    return out


def jamo_spans(cp) -> list[Span]:
    """The Jamo row's spans for one code point (a :class:`~tokviz.core.unicode.CodePointInfo`).

    A precomposed syllable shares its columns out among its 2 or 3 letters; a conjoining jamo (NFD
    text, old Hangul such as ᄒᆞᆫ, the extension blocks U+A960 and U+D7B0) is its own letter with its
    role; a compatibility jamo (ㅋ) is a letter of no syllable and says so.
    """
    ch = cp.char
    jamo = decompose_hangul(ch)
    if jamo is not None:
        n = len(jamo.compat)
        width = cp.byte_end - cp.byte_start
        spans = []
        for k, letter in enumerate(jamo.compat):
            # Jamo are not bytes: the syllable's 3 columns are shared out among its 2 or 3 letters.
            c0 = cp.byte_start + width * k / n
            c1 = cp.byte_start + width * (k + 1) / n
            conjoining = (jamo.choseong, jamo.jungseong, jamo.jongseong)[k]
            spans.append(Span(c0, c1, letter, JAMO_ROLES[k], f"{JAMO_ROLES[k]} {letter} (U+{ord(conjoining):04X})"))
        return spans
    role = jamo_role(ch)
    if role is not None:
        word = JAMO_ROLES[ROLE_INDEX[role]]
        letter = jamo_letter(ch)
        tip = QCoreApplication.translate("ByteLayersView", "{role} {letter}: conjoining jamo {point} {name}")
        return [Span(cp.byte_start, cp.byte_end, letter, word,
                     tip.format(role=word, letter=letter, point=cp.label, name=cp.name))]
    if is_compat_jamo(ch):
        return [Span(cp.byte_start, cp.byte_end, ch, QCoreApplication.translate("ByteLayersView", COMPAT_JAMO_LABEL),
                     QCoreApplication.translate(
                         "ByteLayersView", "{letter}: compatibility jamo {point}, a letter on its own, not part of a "
                         "syllable (NFKC turns it into the conjoining {conjoining})").format(
                         letter=ch, point=cp.label, conjoining=unicodedata.normalize("NFKC", ch)))]
    return []


class ByteLayersView(QWidget):
    """Paints :class:`Layers`; lives in a QScrollArea (its size is the size of the rows)."""

    def __init__(self, parent: QWidget | None = None):
        super().__init__(parent)
        self.setMouseTracking(True)
        self.layers = Layers()
        self.colors: list[QColor] = []
        self.marks: list[bool] = []
        self.selected: tuple[int, int] | None = None
        self._rects: list[tuple[QRectF, str]] = []
        self.compact = False
        self._update_metrics()

    def set_layers(self, layers: Layers, colors: list[QColor], selected: tuple[int, int] | None = None,
                   marks: list[bool] | None = None) -> None:
        """``colors`` and ``marks`` (outlined tokens, :func:`token_marks`) are indexed by token."""
        self.layers = layers
        self.colors = colors
        self.marks = marks or []
        self.selected = selected
        self._update_metrics()
        self.updateGeometry()
        self.adjustSize()
        self.update()

    def refresh_fonts(self) -> None:
        self._update_metrics()
        self.adjustSize()
        self.update()

    def set_compact(self, on: bool) -> None:
        """Compact rows for a short window (a 1366x768 projector in presentation mode): glyphs and
        sub-labels grow less than the font scale, the code point sits beside its glyph on one line,
        so all five rows, down to the token ids, fit under a token view of three lines."""
        if on == self.compact:
            return
        self.compact = on
        self._update_metrics()
        self.updateGeometry()
        self.adjustSize()
        self.update()

    def height_for(self, compact: bool) -> int:
        """Height of the rows in either look (the panel picks the look that fits)."""
        big, mid, small, _title = self._fonts(compact)
        rows, gap = self._row_heights(big, mid, small, compact)
        return int(sum(h + gap for _, h in rows if h) + 8)

    @staticmethod
    def _fonts(compact: bool) -> tuple:
        """(big, mid, small, title) fonts. Compact: the big glyphs grow by half the font scale and the
        sub-labels ('Hangul', 'lead', '초성') by 40% of it; hex bytes and token ids keep the full scale."""
        if not compact:
            return fonts.ui_font(19), fonts.mono_font(12), fonts.ui_font(8.5), fonts.ui_font(10)
        s = fonts.scale()

        def damped(pt: float, share: float) -> float:
            return pt * (1 + (s - 1) * share) / s if s > 1 else pt

        return fonts.ui_font(damped(19, 0.5)), fonts.mono_font(12), fonts.ui_font(damped(8.5, 0.4)), fonts.ui_font(10)

    @staticmethod
    def _big_line(big, compact: bool) -> float:
        """Height of a line of big glyphs. Compact: a little less than the font's line height (its
        leading is room for accents over capitals; Hangul, emoji and jamo sit well inside it)."""
        fm = QFontMetricsF(big)
        return min(fm.height(), fm.ascent() + fm.descent() * 0.6) if compact else fm.height()

    def _row_heights(self, big, mid, small, compact: bool) -> tuple[list[tuple[str, float]], int]:
        big_h = self._big_line(big, compact)
        small_h = QFontMetricsF(small).height()
        mid_h = QFontMetricsF(mid).height()
        has_jamo = bool(self.layers.jamo)
        if compact:
            return [
                ("Grapheme", big_h + small_h + 5),
                ("Code point", mid_h + small_h + 5),
                ("Jamo", (big_h + small_h + 3) if has_jamo else 0),
                ("UTF-8 byte", mid_h + small_h + 9),
                ("Token id", mid_h + small_h + 10),
            ], 3
        return [
            ("Grapheme", big_h + small_h + 10),
            ("Code point", big_h + mid_h + small_h + 10),
            ("Jamo", (big_h + small_h + 6) if has_jamo else 0),
            ("UTF-8 byte", mid_h + small_h + 12),
            ("Token id", mid_h + small_h + 14),
        ], 8

    def _update_metrics(self) -> None:
        # the row titles in the interface's language of the moment (refresh_fonts follows a change)
        self._titles = {"Grapheme": self.tr("Grapheme"), "Code point": self.tr("Code point"), "Jamo": self.tr("Jamo"),
                        "UTF-8 byte": self.tr("UTF-8 byte"), "Token id": self.tr("Token id")}
        self._big, self._mid, self._small, self._title = self._fonts(self.compact)
        mid = QFontMetricsF(self._mid)
        # wide enough for a 6-digit token id over a single byte (o200k ids reach 199,999)
        self._col_w = max(48.0, mid.horizontalAdvance("100257") + 12)
        tfm = QFontMetricsF(self._title)
        titles = self._titles.values()
        self._title_w = max(tfm.horizontalAdvance(t) for t in titles) + 28
        self._rows, self._gap = self._row_heights(self._big, self._mid, self._small, self.compact)

    def row_title(self, row: str) -> str:
        """The title drawn beside one row (``"Token id"``…), in the interface's language."""
        return self._titles[row]

    def placeholder_text(self) -> str:
        """What the view says while no token is chosen."""
        return self.tr("Click a token to see its characters, code points, jamo and bytes.")

    def sizeHint(self) -> QSize:
        w = self._title_w + self.layers.columns * self._col_w + 16
        if not self.layers.columns:  # the sentence in place of the layers, whole (it was cut to "Click a token t")
            w = max(w, QFontMetricsF(fonts.ui_font(11)).horizontalAdvance(self.placeholder_text()) + 24)
        h = sum(h + self._gap for _, h in self._rows if h) + 8
        return QSize(int(w), int(h))

    def minimumSizeHint(self) -> QSize:
        return self.sizeHint()

    def row_rect(self, row: str) -> QRect:
        """Where one row (title and cells) is drawn, e.g. ``"Token id"``; empty if it is not shown."""
        y = 4.0
        for title, h in self._rows:
            if not h:
                continue
            if title == row:
                return QRectF(0, y, self._x(self.layers.columns), h).toAlignedRect()
            y += h + self._gap
        return QRect()

    def token_rect(self, index: int) -> QRectF | None:
        """The box of token ``index`` on the token row, as painted (None when it is not shown)."""
        row = self.row_rect("Token id")
        for s in self.layers.tokens:
            if s.token == index and not row.isEmpty():
                x0, x1 = self._x(s.col_start) + 2, self._x(s.col_end) - 2
                return QRectF(x0, row.y(), x1 - x0, row.height() - 4)
        return None

    def selection_x_range(self) -> tuple[float, float] | None:
        """Horizontal extent of the selected tokens' columns (the panel scrolls it into view)."""
        cols = [(sp.col_start, sp.col_end) for sp in self.layers.tokens
                if self.selected is not None and self.selected[0] <= sp.token <= self.selected[1]]
        if not cols:
            return None
        return self._x(min(c[0] for c in cols)), self._x(max(c[1] for c in cols))

    def row_labels(self, row: str) -> list[str]:
        """The labels drawn on one row (tests and accessibility read what is shown)."""
        spans = {"Grapheme": self.layers.graphemes, "Code point": self.layers.code_points, "Jamo": self.layers.jamo,
                 "UTF-8 byte": self.layers.bytes, "Token id": self.layers.tokens}[row]
        return [s.label for s in spans]

    # ---- painting ------------------------------------------------------------------------------
    def _x(self, col: float) -> float:
        return self._title_w + col * self._col_w

    def paintEvent(self, event) -> None:  # noqa: N802
        p = QPainter(self)
        p.setRenderHint(QPainter.RenderHint.Antialiasing)
        pal = self.palette()
        fg = pal.color(QPalette.ColorRole.Text)
        dim = QColor(fg)
        dim.setAlphaF(0.6)
        self._rects = []
        if not self.layers.columns:
            p.setFont(fonts.ui_font(11))
            p.setPen(pal.color(QPalette.ColorRole.PlaceholderText))
            p.drawText(self.rect().adjusted(12, 0, 0, 0), Qt.AlignmentFlag.AlignVCenter, self.placeholder_text())
            return
        # only the exposed columns are drawn (the scroll area shows a few of 96); every span's
        # tooltip rectangle is still noted, so hovering works wherever the view scrolls to
        exposed = event.rect()
        self._shown = (exposed.left() - 4, exposed.right() + 4)
        y = 4.0
        for title, h in self._rows:
            if not h:
                continue
            if title == "Grapheme":
                self._paint_brackets(p, self.layers.graphemes, y, h, self._big, fg, dim)
            elif title == "Code point":
                self._paint_brackets(p, self.layers.code_points, y, h, self._big, fg, dim, detail_font=self._mid)
            elif title == "Jamo":
                self._paint_brackets(p, self.layers.jamo, y, h, self._big, fg, dim)
            elif title == "UTF-8 byte":
                self._paint_bytes(p, y, h, fg, dim)
            else:
                self._paint_tokens(p, y, h)
            y += h + self._gap
        self._paint_titles(p, pal, dim)

    def title_left(self) -> float:
        """Where the row titles are drawn: the left edge of the visible part of the view, so that
        they stay in sight while the layers scroll sideways under them (sticky labels)."""
        return float(max(0, -self.x()))

    def _paint_titles(self, p, pal, dim) -> None:
        left = self.title_left()
        # an opaque column of the window's colour: the cells scrolling under it stay out of the titles
        p.fillRect(QRectF(left, 0, self._title_w - 4, self.height()), pal.color(QPalette.ColorRole.Window))
        if left > 0:
            p.setPen(QPen(dim, 1))
            p.drawLine(int(left + self._title_w - 4), 0, int(left + self._title_w - 4), self.height())
        p.setFont(self._title)
        p.setPen(dim)
        y = 4.0
        for title, h in self._rows:
            if not h:
                continue
            p.drawText(QRectF(left + 4, y, self._title_w - 8, h),
                       Qt.AlignmentFlag.AlignVCenter | Qt.AlignmentFlag.AlignLeft, self._titles.get(title, title))
            y += h + self._gap

    def moveEvent(self, event) -> None:  # noqa: N802
        # A scroll area scrolls by moving this widget and shifting the old pixels: the titles would
        # scroll away with them, so the whole view is painted again at the new position.
        super().moveEvent(event)
        self.update()

    def _hidden(self, x0: float, x1: float) -> bool:
        """The span ``[x0, x1]`` lies outside the part being painted."""
        lo, hi = getattr(self, "_shown", (float("-inf"), float("inf")))
        return x1 < lo or x0 > hi

    def _paint_brackets(self, p, spans, y, h, font, fg, dim, detail_font=None) -> None:
        detail_font = detail_font or self._small
        big_h = self._big_line(font, self.compact)
        for s in spans:
            x0, x1 = self._x(s.col_start) + 3, self._x(s.col_end) - 3
            r = QRectF(x0, y, x1 - x0, h)
            self._rects.append((r, s.tooltip))
            if self._hidden(x0, x1):
                continue
            p.setPen(QPen(dim, 1.2))
            # A bracket under the label: it spans exactly the bytes the item is made of.
            by = y + h - 2
            p.drawLine(int(x0), int(by), int(x1), int(by))
            p.drawLine(int(x0), int(by), int(x0), int(by - 6))
            p.drawLine(int(x1), int(by), int(x1), int(by - 6))
            if self.compact and spans is self.layers.code_points:
                self._paint_code_point_line(p, s, x0, x1, y, h, fg, dim)
                continue
            p.setFont(font)
            p.setPen(fg)
            # a label centred over a very wide span (a 25-byte family emoji) would sit off screen
            align = Qt.AlignmentFlag.AlignCenter if x1 - x0 < 8 * self._col_w else (
                Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignVCenter)
            p.drawText(QRectF(x0 + (0 if align == Qt.AlignmentFlag.AlignCenter else 12), y, x1 - x0, big_h), align,
                       s.label)
            if s.detail:
                p.setFont(detail_font)
                p.setPen(dim)
                fm = QFontMetricsF(detail_font)
                text = fm.elidedText(s.detail, Qt.TextElideMode.ElideRight, x1 - x0)
                dh = fm.height()
                p.drawText(QRectF(x0 + (0 if align == Qt.AlignmentFlag.AlignCenter else 12), y + big_h, x1 - x0, dh),
                           align, text)
                if s.name:
                    sfm = QFontMetricsF(self._small)
                    p.setFont(self._small)
                    p.drawText(QRectF(x0, y + big_h + dh, x1 - x0, h - big_h - dh - 4), Qt.AlignmentFlag.AlignCenter,
                               sfm.elidedText(s.name.title() if s.name.isupper() else s.name,
                                              Qt.TextElideMode.ElideRight, x1 - x0))

    def _paint_code_point_line(self, p, s, x0, x1, y, h, fg, dim) -> None:
        """Compact code point: "안 U+C548" on one line (just "U+0061" over a one-byte column, whose
        glyph the grapheme row shows), the Unicode name small under it."""
        fm = QFontMetricsF(self._mid)
        mid_h = fm.height()
        line = f"{s.label} {s.detail}"
        if fm.horizontalAdvance(line) > x1 - x0:
            line = s.detail
        p.setFont(self._mid)
        p.setPen(fg)
        p.drawText(QRectF(x0, y, x1 - x0, mid_h), Qt.AlignmentFlag.AlignCenter,
                   fm.elidedText(line, Qt.TextElideMode.ElideRight, x1 - x0))
        sfm = QFontMetricsF(self._small)
        p.setFont(self._small)
        p.setPen(dim)
        p.drawText(QRectF(x0, y + mid_h, x1 - x0, h - mid_h - 4), Qt.AlignmentFlag.AlignCenter,
                   sfm.elidedText(s.name.title() if s.name.isupper() else s.name, Qt.TextElideMode.ElideRight, x1 - x0))

    def byte_cell_color(self, role: str) -> QColor:
        """Background of a UTF-8 byte cell: lead bytes strong, continuation bytes pale, ASCII grey.
        On a dark window the pale cells are dark tints instead (light cells glare on a dark theme)."""
        dark = self.palette().color(QPalette.ColorRole.Window).lightnessF() < 0.5
        colors = ({"lead": "#4f74b8", "continuation": "#2a3a58", "ascii": "#3a3d44"} if dark else
                  {"lead": "#3b5b92", "continuation": "#c9d6ee", "ascii": "#dcdcdc"})
        return QColor(colors.get(role, colors["ascii"]))

    def _paint_bytes(self, p, y, h, fg, dim) -> None:
        mid_h = QFontMetricsF(self._mid).height()
        for s, role, owner in zip(self.layers.bytes, self.layers.byte_roles, self.layers.owners, strict=True):
            x0, x1 = self._x(s.col_start) + 2, self._x(s.col_end) - 2
            r = QRectF(x0, y, x1 - x0, h - 6)
            self._rects.append((r, s.tooltip))
            if self._hidden(x0, x1):
                continue
            bg = self.byte_cell_color(role)
            p.setPen(Qt.PenStyle.NoPen)
            p.setBrush(bg)
            p.drawRoundedRect(r, 3, 3)
            tc = text_color_on(bg)
            p.setFont(self._mid)
            p.setPen(tc)
            p.drawText(QRectF(x0, y + 3, x1 - x0, mid_h), Qt.AlignmentFlag.AlignCenter, s.label)
            p.setFont(self._small)
            p.drawText(QRectF(x0, y + 3 + mid_h, x1 - x0, h - mid_h - 10), Qt.AlignmentFlag.AlignCenter,
                       {"lead": self.tr("lead"), "continuation": self.tr("cont"),
                        "ascii": self.tr("ascii")}.get(role, role))
            if owner >= 0 and owner < len(self.colors):
                # the owning token's colour under each byte ties this row to the token row
                p.fillRect(QRectF(x0, y + h - 5, x1 - x0, 4), self.colors[owner])

    def _paint_tokens(self, p, y, h) -> None:
        mid_h = QFontMetricsF(self._mid).height()
        hl = self.palette().color(QPalette.ColorRole.Highlight)
        for s in self.layers.tokens:
            x0, x1 = self._x(s.col_start) + 2, self._x(s.col_end) - 2
            r = QRectF(x0, y, x1 - x0, h - 4)
            self._rects.append((r, s.tooltip))
            if self._hidden(x0, x1):
                continue
            bg = self.colors[s.token] if 0 <= s.token < len(self.colors) else QColor("#cccccc")
            sel = self.selected is not None and self.selected[0] <= s.token <= self.selected[1]
            p.setPen(QPen(hl, 3) if sel else Qt.PenStyle.NoPen)
            p.setBrush(bg)
            p.drawRoundedRect(r, 4, 4)
            tc = text_color_on(bg)
            if not sel and 0 <= s.token < len(self.marks) and self.marks[s.token]:
                p.setPen(QPen(tc, 2))  # the same outline as in the token view (same colour as its neighbour)
                p.setBrush(Qt.BrushStyle.NoBrush)
                p.drawRoundedRect(r.adjusted(1, 1, -1, -1), 3.5, 3.5)
            p.setPen(tc)
            p.setFont(self._mid)
            label = ("…" if s.open_left else "") + s.label + ("…" if s.open_right else "")
            fm = QFontMetricsF(self._mid)
            p.drawText(QRectF(x0, y + 3, x1 - x0, mid_h), Qt.AlignmentFlag.AlignCenter,
                       fm.elidedText(label, Qt.TextElideMode.ElideRight, x1 - x0 - 4))
            p.setFont(self._small)
            sfm = QFontMetricsF(self._small)
            p.drawText(QRectF(x0, y + 3 + mid_h, x1 - x0, h - mid_h - 8), Qt.AlignmentFlag.AlignCenter,
                       sfm.elidedText(s.detail, Qt.TextElideMode.ElideRight, x1 - x0 - 4))

    def title_width(self) -> float:
        """The width of the row titles' strip (it stays in view while the layers scroll)."""
        return self._title_w

    def tooltip_rects(self) -> list[tuple[QRectF, str]]:
        """Every painted span with the tooltip it shows, from the last paint (whatever part was exposed)."""
        return list(self._rects)

    def mouseMoveEvent(self, event) -> None:  # noqa: N802
        pos = event.position()
        if pos.x() < self.title_left() + self._title_w - 4:
            QToolTip.hideText()  # the sticky titles cover whatever scrolled under them
            return
        for r, tip in self._rects:
            if r.contains(pos) and tip:
                QToolTip.showText(event.globalPosition().toPoint(), tip, self)
                return
        QToolTip.hideText()
