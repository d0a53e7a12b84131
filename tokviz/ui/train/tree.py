"""The merge tree of one token, drawn as a small binary tree: the token on top, the two tokens it was
merged from below it, down to the base bytes or characters. Node colours are the shared token colours."""

from __future__ import annotations

from PySide6.QtCore import QRectF, QSize, Qt
from PySide6.QtGui import QColor, QFontMetricsF, QPainter, QPen
from PySide6.QtWidgets import QSizePolicy, QWidget

from tokviz.ui.fonts import mono_font, ui_font
from tokviz.ui.token_colors import text_color_on, token_color
from tokviz.ui.train.vocab import compact_label, visible_piece
from tokviz.ui.train_replay import MergeNode

_GAP_X = 8.0
_PAD = 6.0


class MergeTreeView(QWidget):
    """Paints ``set_tree(node)``; scales down to fit when the tree is wider than the widget."""

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

    def set_fonts(self, font, small) -> None:
        self._font = font
        self._small = small
        self.update()

    def sizeHint(self) -> QSize:  # noqa: N802
        return QSize(360, 200)

    def set_tree(self, node: MergeNode | None) -> None:
        self.tree = node
        self.update()

    def drawn_labels(self) -> list[tuple[int, str]]:
        """(depth, label) of every box drawn, leaves left to right and each parent after its
        children (what the user sees, for tests)."""
        if self.tree is None:
            return []
        nodes: list = []
        self._layout(self.tree, 0, [0.0], QFontMetricsF(self._font), nodes)
        return [(depth, self.label(node)) for node, _, depth, *_ in nodes]

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

    def label(self, node: MergeNode) -> str:
        """What the node's box says: the piece, or for part of a character its name (``것 1–2/3``)."""
        data = self._partial_bytes(node)
        return visible_piece(node.piece) if data is None else compact_label(data, self.guesser)

    def _partial_bytes(self, node: MergeNode) -> bytes | None:
        """The node's bytes when they are not whole characters (drawn named, with hex), else None."""
        if self.token_bytes is None or "<0x" not in node.piece:
            return None
        return self.token_bytes(node.token_id) or None

    def _box_width(self, node: MergeNode, fm: QFontMetricsF) -> float:
        w = fm.horizontalAdvance(self.label(node))
        data = self._partial_bytes(node)
        if data is not None:
            w = max(w, QFontMetricsF(self._small).horizontalAdvance(data.hex(" ").upper()))
        return w + 2 * _PAD

    def _layout(self, node: MergeNode, depth: int, x: list[float], fm: QFontMetricsF, out: list) -> tuple[float, float]:
        """Leaves left to right; a parent centred over its children. Returns (centre x, box width)."""
        w = self._box_width(node, fm)
        if node.left is None or node.right is None:
            cx = x[0] + w / 2
            x[0] += w + _GAP_X
            out.append((node, cx, depth, w, None, None))
            return cx, w
        lc, _ = self._layout(node.left, depth + 1, x, fm, out)
        rc, _ = self._layout(node.right, depth + 1, x, fm, out)
        cx = (lc + rc) / 2
        out.append((node, cx, depth, w, lc, rc))
        return cx, w

    def paintEvent(self, event) -> None:  # noqa: N802
        p = QPainter(self)
        p.setRenderHint(QPainter.RenderHint.Antialiasing)
        fg = QColor("#dddddd") if self.dark else QColor("#444444")
        if self.tree is None:
            p.setPen(fg)
            p.setFont(ui_font(10))  # ui_font follows the app's font scale
            p.drawText(self.rect(), Qt.AlignmentFlag.AlignCenter, self.tr("Select a token in the table to see its merge tree"))
            return
        fm = QFontMetricsF(self._font)
        nodes: list = []
        x = [0.0]
        self._layout(self.tree, 0, x, fm, nodes)
        width = max(x[0] - _GAP_X, 1.0)
        # the root's box may be wider than its leaves
        for node, cx, _, w, _, _ in nodes:
            width = max(width, cx + w / 2)
        small = QFontMetricsF(self._small)
        box_h, row_h = self._rows()
        height = self.tree.depth() * row_h
        scale = min(1.0, (self.width() - 8) / width, (self.height() - 8) / height)
        p.translate((self.width() - width * scale) / 2, 4)
        p.scale(scale, scale)
        row_y = lambda depth: depth * row_h + 2  # noqa: E731
        p.setPen(QPen(fg, 1.5))
        for node, cx, depth, w, lc, rc in nodes:
            if lc is not None:
                for child_x in (lc, rc):
                    p.drawLine(cx, row_y(depth) + box_h, child_x, row_y(depth + 1))
        p.setFont(self._font)
        for node, cx, depth, w, _, _ in nodes:
            bg = token_color(node.token_id, dark=self.dark)
            rect = QRectF(cx - w / 2, row_y(depth), w, box_h)
            p.setPen(QPen(fg, 1))
            p.setBrush(bg)
            p.drawRoundedRect(rect, 5, 5)
            p.setPen(text_color_on(bg))
            data = self._partial_bytes(node)
            if data is None:
                p.drawText(rect, Qt.AlignmentFlag.AlignCenter, self.label(node))
            else:  # the name on top, its bytes in hex beneath
                top = QRectF(rect.left(), rect.top() + 3, rect.width(), fm.height())
                p.drawText(top, Qt.AlignmentFlag.AlignCenter, self.label(node))
                p.setFont(self._small)
                p.drawText(QRectF(rect.left(), top.bottom(), rect.width(), small.height()),
                           Qt.AlignmentFlag.AlignCenter, data.hex(" ").upper())
                p.setFont(self._font)
            if node.step is not None:
                p.setFont(self._small)
                p.setPen(fg)
                p.drawText(QRectF(cx - w / 2, row_y(depth) + box_h, w, small.height() + 2),
                           Qt.AlignmentFlag.AlignCenter, f"#{node.step}")
                p.setFont(self._font)
        p.end()
