"""The merge tree of one token, drawn as a small binary tree: the token on top, the two tokens it was
merged from below it, down to the base bytes or characters. Node colours are the shared token colours.

While training runs the tree changes at every frame; its texts are drawn as :class:`QStaticText`
laid out once per text and font (``drawText`` in a rectangle laid each label out again at every
paint: ~90 µs a text, most of the tree's paint), and a frame's tree can be laid out and drawn into a
pixmap before the frame (:meth:`MergeTreeView.prepare`) so that the turn that shows it only copies
the pixmap."""

from __future__ import annotations

from PySide6.QtCore import QPointF, QRectF, QSize, Qt
from PySide6.QtGui import QColor, QFontInfo, QFontMetricsF, QPainter, QPen, QPixmap, QStaticText, QTransform
from PySide6.QtWidgets import QSizePolicy, QWidget

from tokviz.core.byte_names import BytePart, byte_parts
from tokviz.ui.fonts import mono_font, ui_font
from tokviz.ui.token_colors import text_color_on, token_color
from tokviz.ui.train.vocab import compact_label, compact_parts, shown_piece
from tokviz.ui.train_replay import MergeNode

_GAP_X = 8.0
_PAD = 6.0
MIN_LABEL_PX = 14  # a box's label is never scaled below this (a projector's back row reads it)
STATIC_TEXTS = 2048  # laid-out texts kept (labels recur from tree to tree: base bytes, short pieces)


class MergeTreeView(QWidget):
    """Paints ``set_tree(node)``; scales down to fit when the tree is wider than the widget, but not
    below readable labels (:data:`MIN_LABEL_PX`): a bigger tree asks for more room (the panel holds the
    view in a scroll area)."""

    def __init__(self, parent=None):
        super().__init__(parent)
        self.tree: MergeNode | None = None
        self.dark = False
        self.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Expanding)
        self._font = mono_font(12)
        self._small = ui_font(8)
        self._font_keys = (self._font.key(), self._small.key())  # (QFont.key() builds a string at every call)
        # byte pieces that hold part of a character are named by it (``것 1–2/3``), hex beneath:
        # the panel sets how to get a token's bytes and the corpus's character guesser
        self.token_bytes = None
        self.guesser = None
        # the text's bytes just before and after the root token, when the tree is of a token seen in a
        # text (the Vocabulary panel's "written as" list): its cut characters are then named exactly
        self.context: tuple[bytes, bytes] = (b"", b"")
        self._root_chars: list | None = None
        # (tree, fonts and namers, boxes, x after the last leaf) of the tree shown and of one prepared
        self._laid: list[tuple] = []
        self._texts: dict[tuple, tuple] = {}  # (text, font key) -> (QStaticText, the scale it was laid out for)
        self.layouts_made = 0  # trees laid out so far (tests: a tree shown again is not laid out again)
        self.trees_drawn = 0  # trees drawn box by box (tests: a tree drawn ahead is only copied when shown)
        self._drawn_ahead: tuple | None = None  # (what it shows, see _look) -> the prepared tree's pixels
        # what is written under a box (None: nothing); the Vocabulary panel names ranks and unbuilt tokens
        self.caption = lambda node: None if node.step is None else f"#{node.step}"

    def set_fonts(self, font, small) -> None:
        self._font = font
        self._small = small
        self._font_keys = (font.key(), small.key())
        self._ask_room()
        self.update()

    def sizeHint(self) -> QSize:  # noqa: N802
        return QSize(360, 200)

    def set_tree(self, node: MergeNode | None, context: tuple[bytes, bytes] = (b"", b"")) -> None:
        """Show ``node``'s tree; ``context``: the bytes of the text before and after it (see :attr:`context`)."""
        if node is not self.tree or context != self.context:
            self.tree = node
            self.context = context
            self._root_chars = None
        self._ask_room()
        self.update()

    def prepare(self, node: MergeNode | None) -> None:
        """Lay out ``node`` and draw it into a pixmap before it is shown (a frame's preparation): the
        turn that shows it then only copies the pixmap (drawing the boxes and texts took 1-6 ms of
        that turn). What is on screen does not change."""
        if node is None or node is self.tree or not self.isVisible():
            return
        shown, chars = self.tree, self._root_chars
        self.tree, self._root_chars = node, None
        try:
            # drawn at the size the view takes for it: in the scroll area that holds it, the area's
            # viewport, or more where the tree needs more room (a view resized otherwise draws anew)
            holder = self.parentWidget()
            size = (holder.size() if holder is not None else self.size()).expandedTo(self._room())
            dpr = self.devicePixelRatioF()
            pixels = QPixmap(size * dpr)
            pixels.setDevicePixelRatio(dpr)
            pixels.fill(Qt.GlobalColor.transparent)  # the boxes on whatever is behind the view, as painted
            painter = QPainter(pixels)
            self._paint_tree(painter, size)
            self._drawn_ahead = (self._look(size), pixels)
        finally:
            self.tree, self._root_chars = shown, chars

    def _look(self, size: QSize) -> tuple:
        """What a paint of the view at ``size`` depends on: a pixmap drawn ahead for another look is not shown."""
        keys = (self._font_keys, self.token_bytes, self.guesser, self.context, self.caption, self.dark)
        return (self.tree, keys, size, self.devicePixelRatioF())

    def _min_scale(self) -> float:
        return min(1.0, MIN_LABEL_PX / self._label_em())

    def _label_em(self) -> float:
        """The labels' font size in pixels (the em, not the taller line height)."""
        return float(max(1, QFontInfo(self._font).pixelSize()))

    def _ask_room(self) -> None:
        """The smallest size at which the tree's labels stay readable."""
        self.setMinimumSize(QSize(0, 0) if self.tree is None else self._room())

    def _room(self) -> QSize:
        """The smallest size at which the labels of the tree shown stay readable."""
        width, height = self._extent()
        k = self._min_scale()
        return QSize(int(width * k) + 9, int(height * k) + 9)

    def _laid_out(self) -> tuple[list, float]:
        """The tree's boxes (see :meth:`_layout`) and the x after its last leaf, laid out once per
        tree and fonts: a frame laid the same tree out four times (room, scale, paint). The layout of
        the tree shown and of the one prepared for the next frame are kept."""
        key = (self._font_keys, self.token_bytes, self.guesser, self.context)
        for laid in self._laid:
            if laid[0] is self.tree and laid[1] == key:
                return laid[2], laid[3]
        nodes: list = []
        x = [0.0]
        self._layout(self.tree, 0, x, QFontMetricsF(self._font), nodes)
        self.layouts_made += 1
        laid = (self.tree, key, nodes, x[0])
        self._laid = [laid, *(old for old in self._laid[:1] if old[0] is not self.tree)]
        return laid[2], laid[3]

    def _static(self, text: str, font, scale: float) -> QStaticText:
        """``text`` laid out in ``font`` for a painter scaled by ``scale`` (kept for the next paints)."""
        key = (text, self._font_keys[font is self._small])
        kept = self._texts.get(key)
        if kept is None or kept[1] != scale:
            if len(self._texts) >= STATIC_TEXTS:
                self._texts.clear()
            static = QStaticText(text)
            static.setTextFormat(Qt.TextFormat.PlainText)
            static.prepare(QTransform.fromScale(scale, scale), font)  # (lays the text out again at every call)
            kept = self._texts[key] = (static, scale)
        return kept[0]

    def _draw_centred(self, p: QPainter, rect: QRectF, text: str, font, scale: float) -> None:
        """``text`` centred in ``rect`` (as ``drawText`` with AlignCenter, overflowing when too wide)."""
        static = self._static(text, font, scale)
        size = static.size()
        p.setFont(font)
        p.drawStaticText(QPointF(rect.center().x() - size.width() / 2, rect.center().y() - size.height() / 2), static)

    def _extent(self) -> tuple[float, float]:
        """The tree's width and height before scaling."""
        nodes, x_end = self._laid_out()
        width = max(x_end - _GAP_X, 1.0)
        for _node, cx, _, w, *_ in nodes:  # the root's box may be wider than its leaves
            width = max(width, cx + w / 2)
        return width, self.tree.depth() * self._rows()[1]

    def label_scale(self, size: QSize | None = None) -> float:
        """How much the tree is scaled down to fit the widget (or ``size``; 1.0: not at all)."""
        if self.tree is None:
            return 1.0
        size = self.size() if size is None else size
        width, height = self._extent()
        fit = min(1.0, (size.width() - 8) / width, (size.height() - 8) / height)
        return max(fit, self._min_scale())

    def label_pixels(self) -> float:
        """The size in pixels of a box's label as drawn (tests: at least :data:`MIN_LABEL_PX`)."""
        return self._label_em() * self.label_scale()

    def drawn_geometry(self) -> tuple[list[QRectF], list[tuple[QPointF, QPointF]]]:
        """The "#step" captions and the edges as drawn (unscaled): a caption must not sit on an edge."""
        if self.tree is None:
            return [], []
        nodes, _ = self._laid_out()
        captions, edges = [], []
        for node, cx, depth, w, lc, rc, *_ in nodes:
            top, bottom, caption = self._row_geometry(depth)
            if self.caption(node) is not None:
                captions.append(QRectF(cx - w / 2, caption, w, QFontMetricsF(self._small).height() + 2))
            if lc is not None:
                edges += [
                    (QPointF(cx, bottom), QPointF(child_x, self._row_geometry(depth + 1)[0])) for child_x in (lc, rc)
                ]
        return captions, edges

    def _row_geometry(self, depth: int) -> tuple[float, float, float]:
        """(box top, where the edges to the children start, the caption's top) of a row: the edges
        start below the "#step" caption, so no caption is drawn over a line."""
        box_h, row_h, small, _line = self._heights()
        top = depth * row_h + 2
        caption = top + box_h
        return top, caption + small + 4, caption

    def _byte_chars(self) -> list | None:
        """For each byte of the root token, the part of the root it lies in (named once, for the
        whole tree): the nodes below name their bytes by the root's characters, so ``B8`` under
        ``그 3/3 다 1/3`` reads ``그 3/3`` and not a separate guess."""
        if self._root_chars is None and self.tree is not None and self.token_bytes is not None:
            data = self.token_bytes(self.tree.token_id)
            chars = []
            before, after = self.context
            for part in byte_parts(data, before=before, after=after, guesser=self.guesser):
                chars += [(part, k) for k in range(len(part.data))]
            self._root_chars = chars
        return self._root_chars

    def drawn_labels(self) -> list[tuple[int, str]]:
        """(depth, label) of every box drawn, leaves left to right and each parent after its
        children (what the user sees, for tests)."""
        if self.tree is None:
            return []
        nodes, _ = self._laid_out()
        return [(depth, label) for _node, _, depth, _, _, _, _offset, label, _hex in nodes]

    def _rows(self) -> tuple[float, float]:
        """(box height, row height): a row holds the node's box, its "#step" caption and room for
        the edges, all from the fonts, so presentation mode's larger type gets taller rows rather
        than overlapping text."""
        box_h, row_h, _small, _line = self._heights()
        return box_h, row_h

    def _heights(self) -> tuple[float, float, float, float]:
        """(box, row, small text line, label line) heights, measured once per fonts (a paint asked
        for them per node)."""
        key = (self._font_keys, self.token_bytes is not None)
        kept = self.__dict__.get("_kept_heights")
        if kept is None or kept[0] != key:
            small, line = QFontMetricsF(self._small).height(), QFontMetricsF(self._font).height()
            box_h = line + 8 + (small if self.token_bytes is not None else 0)
            kept = self._kept_heights = (key, (box_h, box_h + small + 14, small, line))
        return kept[1]

    def tree_height(self) -> float:
        """Height of the drawn tree before it is scaled down to fit (0 without a tree)."""
        return 0.0 if self.tree is None else self.tree.depth() * self._rows()[1]

    def label(self, node: MergeNode, offset: int | None = None) -> str:
        """What the node's box says: the piece, or for part of a character its name (``것 1–2/3``).
        ``offset``: where the node's bytes start in the root's (named by the root's characters)."""
        data = self._partial_bytes(node)
        if data is None:
            return shown_piece(node.piece)
        chars = self._byte_chars() if offset is not None else None
        if not chars or offset + len(data) > len(chars):
            return compact_label(data, self.guesser)
        return compact_parts(_sub_parts(chars[offset : offset + len(data)]))

    def _partial_bytes(self, node: MergeNode) -> bytes | None:
        """The node's bytes when they are not whole characters (drawn named, with hex), else None."""
        if self.token_bytes is None or "<0x" not in node.piece:
            return None
        return self.token_bytes(node.token_id) or None

    def _box(self, node: MergeNode, fm: QFontMetricsF, offset: int | None = None) -> tuple[float, str, str | None]:
        """(box width, label, the hex beneath it or None) of ``node``."""
        label = self.label(node, offset)
        w = fm.horizontalAdvance(label)
        data = self._partial_bytes(node)
        hex_text = None
        if data is not None:
            hex_text = data.hex(" ").upper()
            w = max(w, QFontMetricsF(self._small).horizontalAdvance(hex_text))
        return w + 2 * _PAD, label, hex_text

    def _layout(
        self, node: MergeNode, depth: int, x: list[float], fm: QFontMetricsF, out: list, offset: int = 0
    ) -> tuple[float, float]:
        """Leaves left to right; a parent centred over its children. Returns (centre x, box width).
        ``offset`` is where the node's bytes start in the root token's bytes."""
        w, label, hex_text = self._box(node, fm, offset)
        if node.left is None or node.right is None:
            cx = x[0] + w / 2
            x[0] += w + _GAP_X
            out.append((node, cx, depth, w, None, None, offset, label, hex_text))
            return cx, w
        lc, _ = self._layout(node.left, depth + 1, x, fm, out, offset)
        left_len = len(self.token_bytes(node.left.token_id)) if self.token_bytes is not None else 0
        rc, _ = self._layout(node.right, depth + 1, x, fm, out, offset + left_len)
        cx = (lc + rc) / 2
        out.append((node, cx, depth, w, lc, rc, offset, label, hex_text))
        return cx, w

    def paintEvent(self, event) -> None:  # noqa: N802
        p = QPainter(self)
        if self.tree is None:
            p.setPen(QColor("#dddddd") if self.dark else QColor("#444444"))
            p.setFont(ui_font(10))  # ui_font follows the app's font scale
            p.drawText(
                self.rect(), Qt.AlignmentFlag.AlignCenter, self.tr("Select a token in the table to see its merge tree")
            )
            return
        ahead = self._drawn_ahead
        if ahead is not None and ahead[0] == self._look(self.size()):
            p.drawPixmap(0, 0, ahead[1])
            p.end()
            return
        self._paint_tree(p, self.size())

    def _paint_tree(self, p: QPainter, size: QSize) -> None:
        """Draw the tree shown (edges, boxes, labels, captions) as at ``size`` with ``p``, and end it."""
        self.trees_drawn += 1
        p.setRenderHint(QPainter.RenderHint.Antialiasing)
        fg = QColor("#dddddd") if self.dark else QColor("#444444")
        nodes, _ = self._laid_out()
        width, _height = self._extent()
        box_h, _row_h, small_h, line_h = self._heights()
        scale = self.label_scale(size)
        p.translate(max(4.0, (size.width() - width * scale) / 2), 4)
        p.scale(scale, scale)
        p.setPen(QPen(fg, 1.5))
        for _node, cx, depth, _w, lc, rc, *_ in nodes:
            if lc is not None:
                start = QPointF(cx, self._row_geometry(depth)[1])
                child_top = self._row_geometry(depth + 1)[0]
                for child_x in (lc, rc):
                    p.drawLine(start, QPointF(child_x, child_top))
        box_pen = QPen(fg, 1)
        for node, cx, depth, w, _lc, _rc, _offset, label, hex_text in nodes:
            bg = token_color(node.token_id, dark=self.dark)
            rect = QRectF(cx - w / 2, self._row_geometry(depth)[0], w, box_h)
            p.setPen(box_pen)
            p.setBrush(bg)
            p.drawRoundedRect(rect, 5, 5)
            p.setPen(text_color_on(bg))
            if hex_text is None:
                self._draw_centred(p, rect, label, self._font, scale)
            else:  # the name on top, its bytes in hex beneath
                top = QRectF(rect.left(), rect.top() + 3, rect.width(), line_h)
                self._draw_centred(p, top, label, self._font, scale)
                self._draw_centred(
                    p, QRectF(rect.left(), top.bottom(), rect.width(), small_h), hex_text, self._small, scale
                )
            caption = self.caption(node)
            if caption is not None:
                p.setPen(fg)
                self._draw_centred(p, QRectF(rect.left(), rect.bottom(), w, small_h + 2), caption, self._small, scale)
        p.end()


def _sub_parts(chars: list[tuple[BytePart, int]]) -> list[BytePart]:
    """The parts of a run of the root's bytes, given each byte as (root part, index in it): bytes of
    one root part stay together and keep its character, numbered by their place in it."""
    out: list[BytePart] = []
    i = 0
    while i < len(chars):
        part, k = chars[i]
        j = i
        while j + 1 < len(chars) and chars[j + 1][0] is part:
            j += 1
        last_k = chars[j][1]
        data = part.data[k : last_k + 1]
        if part.first:  # positions known: shift into the character
            out.append(
                BytePart(
                    data, part.char, part.first + k, part.first + last_k, part.length, part.guessed, part.candidates
                )
            )
        else:
            out.append(BytePart(data, part.char, 0, 0, 0, part.guessed, part.candidates))
        i = j + 1
    return out
