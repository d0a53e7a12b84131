"""The merge tree of one token, drawn as a small binary tree: the token on top, the two tokens it was
merged from below it, down to the base bytes or characters. Node colours are the shared token colours."""

from __future__ import annotations

from PySide6.QtCore import QPointF, QRectF, QSize, Qt
from PySide6.QtGui import QColor, QFontInfo, QFontMetricsF, QPainter, QPen
from PySide6.QtWidgets import QSizePolicy, QWidget

from tokviz.core.byte_names import BytePart, byte_parts
from tokviz.ui.fonts import mono_font, ui_font
from tokviz.ui.token_colors import text_color_on, token_color
from tokviz.ui.train.vocab import compact_label, compact_parts, shown_piece
from tokviz.ui.train_replay import MergeNode

_GAP_X = 8.0
_PAD = 6.0
MIN_LABEL_PX = 14  # a box's label is never scaled below this (a projector's back row reads it)


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
        # byte pieces that hold part of a character are named by it (``것 1–2/3``), hex beneath:
        # the panel sets how to get a token's bytes and the corpus's character guesser
        self.token_bytes = None
        self.guesser = None
        self._root_chars: list | None = None
        self._laid: tuple | None = None  # (tree, fonts and namers, boxes, x after the last leaf)
        # what is written under a box (None: nothing); the Vocabulary panel names ranks and unbuilt tokens
        self.caption = lambda node: None if node.step is None else f"#{node.step}"

    def set_fonts(self, font, small) -> None:
        self._font = font
        self._small = small
        self._ask_room()
        self.update()

    def sizeHint(self) -> QSize:  # noqa: N802
        return QSize(360, 200)

    def set_tree(self, node: MergeNode | None) -> None:
        self.tree = node
        self._root_chars = None
        self._ask_room()
        self.update()

    def _min_scale(self) -> float:
        return min(1.0, MIN_LABEL_PX / self._label_em())

    def _label_em(self) -> float:
        """The labels' font size in pixels (the em, not the taller line height)."""
        return float(max(1, QFontInfo(self._font).pixelSize()))

    def _ask_room(self) -> None:
        """The smallest size at which the tree's labels stay readable."""
        if self.tree is None:
            self.setMinimumSize(0, 0)
            return
        width, height = self._extent()
        k = self._min_scale()
        self.setMinimumSize(int(width * k) + 9, int(height * k) + 9)

    def _laid_out(self) -> tuple[list, float]:
        """The tree's boxes (see :meth:`_layout`) and the x after its last leaf, laid out once per
        tree and fonts: a frame laid the same tree out four times (room, scale, paint)."""
        key = (self._font.key(), self._small.key(), self.token_bytes, self.guesser)
        laid = self._laid
        if laid is None or laid[0] is not self.tree or laid[1] != key:
            nodes: list = []
            x = [0.0]
            self._layout(self.tree, 0, x, QFontMetricsF(self._font), nodes)
            laid = self._laid = (self.tree, key, nodes, x[0])
        return laid[2], laid[3]

    def _extent(self) -> tuple[float, float]:
        """The tree's width and height before scaling."""
        nodes, x_end = self._laid_out()
        width = max(x_end - _GAP_X, 1.0)
        for _node, cx, _, w, *_ in nodes:  # the root's box may be wider than its leaves
            width = max(width, cx + w / 2)
        return width, self.tree.depth() * self._rows()[1]

    def label_scale(self) -> float:
        """How much the tree is scaled down to fit the widget (1.0: not at all)."""
        if self.tree is None:
            return 1.0
        width, height = self._extent()
        fit = min(1.0, (self.width() - 8) / width, (self.height() - 8) / height)
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
        for node, cx, depth, w, lc, rc, _ in nodes:
            top, bottom, caption = self._row_geometry(depth)
            if self.caption(node) is not None:
                captions.append(QRectF(cx - w / 2, caption, w, QFontMetricsF(self._small).height() + 2))
            if lc is not None:
                edges += [(QPointF(cx, bottom), QPointF(child_x, self._row_geometry(depth + 1)[0]))
                          for child_x in (lc, rc)]
        return captions, edges

    def _row_geometry(self, depth: int) -> tuple[float, float, float]:
        """(box top, where the edges to the children start, the caption's top) of a row: the edges
        start below the "#step" caption, so no caption is drawn over a line."""
        box_h, row_h = self._rows()
        top = depth * row_h + 2
        caption = top + box_h
        return top, caption + QFontMetricsF(self._small).height() + 4, caption

    def _byte_chars(self) -> list | None:
        """For each byte of the root token, the part of the root it lies in (named once, for the
        whole tree): the nodes below name their bytes by the root's characters, so ``B8`` under
        ``그 3/3 다 1/3`` reads ``그 3/3`` and not a separate guess."""
        if self._root_chars is None and self.tree is not None and self.token_bytes is not None:
            data = self.token_bytes(self.tree.token_id)
            chars = []
            for part in byte_parts(data, guesser=self.guesser):
                chars += [(part, k) for k in range(len(part.data))]
            self._root_chars = chars
        return self._root_chars

    def drawn_labels(self) -> list[tuple[int, str]]:
        """(depth, label) of every box drawn, leaves left to right and each parent after its
        children (what the user sees, for tests)."""
        if self.tree is None:
            return []
        nodes, _ = self._laid_out()
        return [(depth, self.label(node, offset)) for node, _, depth, _, _, _, offset in nodes]

    def _rows(self) -> tuple[float, float]:
        """(box height, row height): a row holds the node's box, its "#step" caption and room for
        the edges, all from the fonts, so presentation mode's larger type gets taller rows rather
        than overlapping text."""
        small = QFontMetricsF(self._small).height()
        box_h = QFontMetricsF(self._font).height() + 8 + (small if self.token_bytes is not None else 0)
        return box_h, box_h + small + 14

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
        return compact_parts(_sub_parts(chars[offset: offset + len(data)]))

    def _partial_bytes(self, node: MergeNode) -> bytes | None:
        """The node's bytes when they are not whole characters (drawn named, with hex), else None."""
        if self.token_bytes is None or "<0x" not in node.piece:
            return None
        return self.token_bytes(node.token_id) or None

    def _box_width(self, node: MergeNode, fm: QFontMetricsF, offset: int | None = None) -> float:
        w = fm.horizontalAdvance(self.label(node, offset))
        data = self._partial_bytes(node)
        if data is not None:
            w = max(w, QFontMetricsF(self._small).horizontalAdvance(data.hex(" ").upper()))
        return w + 2 * _PAD

    def _layout(self, node: MergeNode, depth: int, x: list[float], fm: QFontMetricsF, out: list,
                offset: int = 0) -> tuple[float, float]:
        """Leaves left to right; a parent centred over its children. Returns (centre x, box width).
        ``offset`` is where the node's bytes start in the root token's bytes."""
        w = self._box_width(node, fm, offset)
        if node.left is None or node.right is None:
            cx = x[0] + w / 2
            x[0] += w + _GAP_X
            out.append((node, cx, depth, w, None, None, offset))
            return cx, w
        lc, _ = self._layout(node.left, depth + 1, x, fm, out, offset)
        left_len = len(self.token_bytes(node.left.token_id)) if self.token_bytes is not None else 0
        rc, _ = self._layout(node.right, depth + 1, x, fm, out, offset + left_len)
        cx = (lc + rc) / 2
        out.append((node, cx, depth, w, lc, rc, offset))
        return cx, w

    def paintEvent(self, event) -> None:  # noqa: N802
        p = QPainter(self)
        p.setRenderHint(QPainter.RenderHint.Antialiasing)
        fg = QColor("#dddddd") if self.dark else QColor("#444444")
        if self.tree is None:
            p.setPen(fg)
            p.setFont(ui_font(10))  # ui_font follows the app's font scale
            p.drawText(self.rect(), Qt.AlignmentFlag.AlignCenter,
                       self.tr("Select a token in the table to see its merge tree"))
            return
        fm = QFontMetricsF(self._font)
        nodes, _ = self._laid_out()
        width, _height = self._extent()
        small = QFontMetricsF(self._small)
        box_h, _row_h = self._rows()
        scale = self.label_scale()
        p.translate(max(4.0, (self.width() - width * scale) / 2), 4)
        p.scale(scale, scale)

        def row_y(depth: int) -> float:
            return self._row_geometry(depth)[0]

        p.setPen(QPen(fg, 1.5))
        for _node, cx, depth, _w, lc, rc, _ in nodes:
            if lc is not None:
                for child_x in (lc, rc):
                    p.drawLine(QPointF(cx, self._row_geometry(depth)[1]), QPointF(child_x, row_y(depth + 1)))
        p.setFont(self._font)
        for node, cx, depth, w, _, _, offset in nodes:
            bg = token_color(node.token_id, dark=self.dark)
            rect = QRectF(cx - w / 2, row_y(depth), w, box_h)
            p.setPen(QPen(fg, 1))
            p.setBrush(bg)
            p.drawRoundedRect(rect, 5, 5)
            p.setPen(text_color_on(bg))
            data = self._partial_bytes(node)
            if data is None:
                p.drawText(rect, Qt.AlignmentFlag.AlignCenter, self.label(node, offset))
            else:  # the name on top, its bytes in hex beneath
                top = QRectF(rect.left(), rect.top() + 3, rect.width(), fm.height())
                p.drawText(top, Qt.AlignmentFlag.AlignCenter, self.label(node, offset))
                p.setFont(self._small)
                p.drawText(QRectF(rect.left(), top.bottom(), rect.width(), small.height()),
                           Qt.AlignmentFlag.AlignCenter, data.hex(" ").upper())
                p.setFont(self._font)
            caption = self.caption(node)
            if caption is not None:
                p.setFont(self._small)
                p.setPen(fg)
                p.drawText(QRectF(cx - w / 2, row_y(depth) + box_h, w, small.height() + 2),
                           Qt.AlignmentFlag.AlignCenter | Qt.TextFlag.TextDontClip, caption)
                p.setFont(self._font)
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
        data = part.data[k: last_k + 1]
        if part.first:  # positions known: shift into the character
            out.append(BytePart(data, part.char, part.first + k, part.first + last_k, part.length,
                                part.guessed, part.candidates))
        else:
            out.append(BytePart(data, part.char, 0, 0, 0, part.guessed, part.candidates))
        i = j + 1
    return out
