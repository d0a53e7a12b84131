"""The four tabs of the Vocabulary panel. Each renders results it is given and sends intents to the
panel's :class:`~tokviz.ui.vocab.state.VocabState`; none computes anything itself.

- :class:`VocabTreeTab`  search a token (text, hex bytes, #id); its merge tree, drawn by the Train
  panel's :class:`~tokviz.ui.train.tree.MergeTreeView`, and each merge named by characters
- :class:`VocabReachTab` tokens unreachable on their own; for a corpus, tokens never used, used once
  and the share of each script used
- :class:`VocabDiffTab`  shared / only A / only B with search, and a per-script census of each
- :class:`VocabMapsTab`  the number and indentation heatmaps, exported as PNG and CSV
"""

from __future__ import annotations

from PySide6.QtCore import Qt, QTimer, Signal
from PySide6.QtWidgets import (
    QComboBox,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QListWidget,
    QListWidgetItem,
    QPushButton,
    QScrollArea,
    QSplitter,
    QVBoxLayout,
    QWidget,
)

from tokviz.core.byte_names import byte_parts
from tokviz.ui.train.tree import MergeTreeView
from tokviz.ui.train.vocab import part_label
from tokviz.ui.train_replay import MergeNode, byte_piece
from tokviz.ui.vocab.heatmap import SplitHeatmap
from tokviz.ui.vocab.jobs import row_table, shown
from tokviz.ui.vocab.tables import RowsBox, paint_in_turns

SEARCH_DEBOUNCE_MS = 250


def _wrap_label(label: QLabel) -> QLabel:
    label.setWordWrap(True)
    label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
    return label


def view_tree(node) -> MergeNode:
    """A core merge tree as the Train panel's tree view draws it (the merge's rank as its step)."""
    left = view_tree(node.left) if node.left is not None else None
    right = view_tree(node.right) if node.right is not None else None
    return MergeNode(node.id, byte_piece(node.data), left, right, node.rank if left is not None else None)


def named(data: bytes, root: bytes, start: int) -> str:
    """``data`` (at byte ``start`` of ``root``) named by characters: ``것 3바이트 중 1–2번째``."""
    text, last_whole = "", True
    for part in byte_parts(data, before=root[:start], after=root[start + len(data) :]):
        # whole characters run together, as the token views draw them; a partial one stands apart
        gap = "" if not text or (part.whole and last_whole) else " "
        text += gap + (shown(part.data) if part.whole else part_label(part))
        last_whole = part.whole
    return text


class VocabTreeTab(QWidget):
    searched = Signal(str)  # the query typed (debounced)
    picked = Signal(int)  # a match chosen

    def __init__(self, parent=None):
        super().__init__(parent)
        box = QVBoxLayout(self)
        row = QHBoxLayout()
        self.search_label = QLabel()
        row.addWidget(self.search_label)
        self.search_edit = QLineEdit()
        self.search_edit.setClearButtonEnabled(True)
        row.addWidget(self.search_edit, 1)
        box.addLayout(row)
        self._debounce = QTimer(self)
        self._debounce.setSingleShot(True)
        self._debounce.setInterval(SEARCH_DEBOUNCE_MS)
        self._debounce.timeout.connect(lambda: self.searched.emit(self.search_edit.text()))
        self.search_edit.textChanged.connect(self._debounce.start)
        self.search_edit.returnPressed.connect(self.search_now)
        split = QSplitter(Qt.Orientation.Horizontal)
        split.setObjectName("vocab-tree")
        left = QWidget()
        lbox = QVBoxLayout(left)
        lbox.setContentsMargins(0, 0, 0, 0)
        # when no token holds the text searched: the tokens the encoder writes it as, listed below
        self.written_note = _wrap_label(QLabel())
        self.written_note.hide()
        lbox.addWidget(self.written_note)
        self.matches = QListWidget()
        self.matches.currentItemChanged.connect(self._on_match)
        lbox.addWidget(self.matches, 1)
        split.addWidget(left)
        right = QWidget()
        rbox = QVBoxLayout(right)
        rbox.setContentsMargins(0, 0, 0, 0)
        self.info = _wrap_label(QLabel())
        rbox.addWidget(self.info)
        self.tree_view = MergeTreeView()
        self._unbuilt: set[int] = set()
        self.tree_view.caption = self._caption
        scroll = QScrollArea()
        scroll.setWidget(self.tree_view)
        scroll.setWidgetResizable(True)
        rbox.addWidget(scroll, 3)
        self.merge_list = QListWidget()
        rbox.addWidget(self.merge_list, 2)
        split.addWidget(right)
        split.setSizes([220, 900])
        box.addWidget(split, 1)
        self.split = split
        self.result = None
        self._tree_place: tuple[bytes, int] | None = None  # (bytes, start) the tree shown is named in
        self._matches_result = None  # the search result listed (the note is worded again on a language switch)
        self.retranslate()

    def retranslate(self) -> None:
        self.search_label.setText(self.tr("Token:"))
        self.search_edit.setPlaceholderText(self.tr("text, hex bytes (EA B2 83) or #id"))
        if self._matches_result is not None and self._matches_result.written_as:  # its tokens are named in words
            current = self.matches.currentItem()
            self.show_matches(self._matches_result, current.data(Qt.ItemDataRole.UserRole) if current else None)
        self._word_note()
        self.show_tree(self.result)

    def search_now(self) -> None:
        self._debounce.stop()
        self.searched.emit(self.search_edit.text())

    def _caption(self, node: MergeNode) -> str | None:
        if node.token_id in self._unbuilt:
            return self.tr("not reachable by merges")
        return None if node.step is None else f"#{node.step}"

    def show_matches(self, result, selected: int | None) -> None:
        matches = result.matches if result is not None else []
        # a token a text is written with twice is listed twice: the row picked stays, else the first
        row = self.matches.currentRow()
        if not (result is self._matches_result and 0 <= row < len(matches) and matches[row][0] == selected):
            row = next((k for k, (tid, _) in enumerate(matches) if tid == selected), -1)
        self.matches.blockSignals(True)
        self.matches.clear()
        labels = self._written_labels(result)
        for k, (tid, token) in enumerate(matches):
            item = QListWidgetItem(f"#{tid}  {labels[k] if labels else token}")
            item.setData(Qt.ItemDataRole.UserRole, tid)
            self.matches.addItem(item)
        if row >= 0:
            self.matches.setCurrentRow(row)
        self.matches.blockSignals(False)
        self._matches_result = result
        self._word_note()
        self._fit_list_width()
        if self.result is not None and self._text_around(self.result.tree) != self._tree_place:
            self.show_tree(self.result)  # the tree shown is of a row of this list: named by its text now
        if result is not None and not result.matches:
            self.info.setText(self.tr("No token matches {query}.").format(query=result.query))

    @staticmethod
    def _written_labels(result) -> list[str]:
        """The tokens a text is written as, named as the merge tree names them (a token that cuts a
        character: ``각 bytes 1–2 of 3``); [] for ordinary matches."""
        if result is None or not result.written_as:
            return []
        return [named(data, *place) if (place := VocabTreeTab._place(result, row)) else shown(data)
                for row, (data, _) in enumerate(result.written_at)]

    @staticmethod
    def _place(result, row: int) -> tuple[bytes, int] | None:
        """(the text searched, in UTF-8, and where the token of ``row`` starts in it) for a row of the tokens
        a text is written as; None when the token's bytes are not the text's at its place (a normaliser,
        SentencePiece's ▁): such a token is shown as it is."""
        data, start = result.written_at[row]
        root = result.query.strip().encode("utf-8")
        return (root, start) if root[start : start + len(data)] == data else None

    LIST_SHARE = 0.4  # the list widens to show its longest row whole, up to this share of the tab

    def _fit_list_width(self) -> None:
        """Widen the list (never narrow it) so that its longest row shows whole, up to :data:`LIST_SHARE` of
        the tab: the tokens a text is written as are named in words (``각 3바이트 중 1–2번째``), and in
        presentation mode they were cut at the list's edge."""
        view = self.matches
        if not view.count():
            return
        need = view.sizeHintForColumn(0) + 2 * view.frameWidth() + view.verticalScrollBar().sizeHint().width() + 4
        sizes = self.split.sizes()
        total = sum(sizes)
        left = min(need, int(total * self.LIST_SHARE))
        if total > 0 and left > sizes[0]:
            self.split.setSizes([left, total - left])

    def _word_note(self) -> None:
        """Over the list, when it holds the tokens the text searched is written as (no token holds it)."""
        result = self._matches_result
        written = result is not None and result.written_as
        self.written_note.setVisible(written)
        if written:
            self.written_note.setText(
                self.tr("No token holds {query}. It is written as these {n} tokens:").format(
                    query=result.query.strip(), n=f"{result.written_in:,}"
                )
            )

    def _on_match(self, item, _previous=None) -> None:
        if item is not None:
            self.picked.emit(int(item.data(Qt.ItemDataRole.UserRole)))

    def show_tree(self, result) -> None:
        """Draw a :class:`~tokviz.ui.vocab.jobs.TreeResult` (None: no tree)."""
        self.result = result
        self.merge_list.clear()
        if result is None:
            self._unbuilt = set()
            self.tree_view.set_tree(None)
            return
        tree = result.tree
        self._unbuilt = set()
        self.tree_view.token_bytes = result.token_bytes.__getitem__
        root, start = self._tree_place = self._text_around(tree)
        lines = self._merge_lines(tree, root, start)
        self.tree_view.set_tree(view_tree(tree), (root[:start], root[start + len(tree.data) :]))
        for _rank, line in sorted(lines, key=lambda rl: rl[0]):
            self.merge_list.addItem(line)
        token = named(tree.data, root, start) if start or len(root) > len(tree.data) else shown(tree.data)
        self.info.setText(
            self.tr("#{id} {token} · {n} bytes: {hex}").format(
                id=tree.id, token=token, n=len(tree.data), hex=tree.data.hex(" ").upper()
            )
        )

    def _text_around(self, tree) -> tuple[bytes, int]:
        """(bytes, where the tree's token starts in them): the text searched, when the token is the row
        picked among those it is written as (``이 byte 1 of 3`` is named by the 이 it was cut from), else the
        token's own bytes."""
        listed, row = self._matches_result, self.matches.currentRow()
        if listed is not None and listed.written_as and 0 <= row < len(listed.written_at):
            place = self._place(listed, row)
            if place is not None and listed.matches[row][0] == tree.id and listed.written_at[row][0] == tree.data:
                return place
        return tree.data, 0

    def _merge_lines(self, node, root: bytes, start: int) -> list[tuple[int, str]]:
        """(rank, line) of every merge under ``node``; an unbuilt token says so."""
        if node.unbuilt:
            self._unbuilt.add(node.id)
            parts = " + ".join(shown(self.result.token_bytes[i]) for i in node.stops_at)
            return [
                (
                    -1,
                    self.tr("{token}: not reachable by merges (the merges stop at {parts})").format(
                        token=named(node.data, root, start), parts=parts
                    ),
                )
            ]
        if node.left is None:
            return []
        lines = [
            (
                node.rank,
                self.tr("rank {rank}: {left} + {right} → {token}").format(
                    rank=node.rank,
                    left=named(node.left.data, root, start),
                    right=named(node.right.data, root, start + len(node.left.data)),
                    token=named(node.data, root, start),
                ),
            )
        ]
        lines += self._merge_lines(node.left, root, start)
        lines += self._merge_lines(node.right, root, start + len(node.left.data))
        return lines

    def drawn_labels(self) -> list[str]:
        """What the tree's boxes say (tests)."""
        return [label for _, label in self.tree_view.drawn_labels()]

    def merge_lines(self) -> list[str]:
        return [self.merge_list.item(i).text() for i in range(self.merge_list.count())]


class VocabReachTab(QWidget):
    corpusChosen = Signal(str)  # a corpus file path
    openCorpus = Signal()  # the user asks to open a corpus file

    def __init__(self, corpora: list[tuple[str, str]], parent=None):
        """``corpora``: (shown name, path) of the corpora offered."""
        super().__init__(parent)
        box = QHBoxLayout(self)
        left = QWidget()
        lbox = QVBoxLayout(left)
        lbox.setContentsMargins(0, 0, 0, 0)
        self.reach_summary = _wrap_label(QLabel())
        lbox.addWidget(self.reach_summary)
        self.unreachable = RowsBox()
        lbox.addWidget(self.unreachable, 1)
        right = QWidget()
        rbox = QVBoxLayout(right)
        rbox.setContentsMargins(0, 0, 0, 0)
        row = QHBoxLayout()
        self.corpus_label = QLabel()
        row.addWidget(self.corpus_label)
        self.corpus_combo = QComboBox()
        self.corpus_combo.addItem("—", None)
        for name, path in corpora:
            self.corpus_combo.addItem(name, path)
        self.corpus_combo.currentIndexChanged.connect(self._on_corpus)
        row.addWidget(self.corpus_combo, 1)
        self.open_button = QPushButton()
        self.open_button.clicked.connect(self.openCorpus)
        row.addWidget(self.open_button)
        rbox.addLayout(row)
        self.use_summary = _wrap_label(QLabel())
        rbox.addWidget(self.use_summary)
        split = QSplitter(Qt.Orientation.Vertical)
        split.setObjectName("vocab-use")
        self.never = RowsBox()
        self.once = RowsBox()
        self.shares = RowsBox(long=False)
        for w in (self.shares, self.never, self.once):
            split.addWidget(w)
        rbox.addWidget(split, 1)
        outer = QSplitter(Qt.Orientation.Horizontal)
        outer.setObjectName("vocab-reach")
        outer.addWidget(left)
        outer.addWidget(right)
        box.addWidget(outer)
        self.reach = None
        self.use = None
        self.retranslate()

    def add_corpus(self, name: str, path: str) -> None:
        """Offer a corpus file and choose it."""
        i = self.corpus_combo.findData(path)
        if i < 0:
            self.corpus_combo.addItem(name, path)
            i = self.corpus_combo.count() - 1
        self.corpus_combo.setCurrentIndex(i)

    def _on_corpus(self, _index: int) -> None:
        self.corpusChosen.emit(self.corpus_combo.currentData() or "")

    def retranslate(self) -> None:
        self.corpus_label.setText(self.tr("Corpus for use counts:"))
        self.open_button.setText(self.tr("Open corpus…"))
        self.show_reach(self.reach, "")
        self.show_use(self.use)

    def show_reach(self, result, encoder: str) -> None:
        self.reach = result
        self.unreachable.set_table(result.rows if result is not None else None)
        if result is None:
            self.reach_summary.setText(self.tr("Working out which tokens no text produces on its own…"))
            self.unreachable.set_title(self.tr("Unreachable tokens"))
            return
        r = result.reach
        never = "—" if r.partial_never is None else f"{len(r.partial_never):,}"
        self.reach_summary.setText(
            self.tr(
                "{encoder}: {checked} tokens checked. {n} are unreachable: their own text, encoded alone, gives "
                "other tokens. {partial} are not whole UTF-8 characters (only part of a text); of those, {never} "
                "can never appear in any encoding."
            ).format(
                encoder=r.encoder,
                checked=f"{r.checked:,}",
                n=f"{len(r.unreachable):,}",
                partial=f"{len(r.partial_utf8):,}",
                never=never,
            )
        )
        self.unreachable.set_title(self.tr("Unreachable tokens ({n})").format(n=f"{len(r.unreachable):,}"))

    def show_use(self, result) -> None:
        self.use = result
        for box, table in ((self.never, "never"), (self.once, "once"), (self.shares, "shares")):
            box.set_table(getattr(result, table) if result is not None else None)
        paint_in_turns([self.shares, self.never, self.once])
        n_never = len(result.never) if result is not None else 0
        n_once = len(result.once) if result is not None else 0
        self.never.set_title(self.tr("Never used ({n})").format(n=f"{n_never:,}"))
        self.once.set_title(self.tr("Used once ({n})").format(n=f"{n_once:,}"))
        self.shares.set_title(self.tr("Share of each script's tokens the corpus uses"))
        if result is None:
            self.use_summary.setText(self.tr("Choose a corpus to see which tokens it never uses."))
            return
        self.use_summary.setText(
            self.tr("{texts} texts, {tokens} tokens: {never} tokens never used, {once} used once.").format(
                texts=f"{result.texts:,}", tokens=f"{result.tokens:,}", never=f"{n_never:,}", once=f"{n_once:,}"
            )
        )


class VocabDiffTab(QWidget):
    secondChosen = Signal(str)
    filterChanged = Signal(str)

    def __init__(self, parent=None):
        super().__init__(parent)
        box = QVBoxLayout(self)
        row = QHBoxLayout()
        self.second_label = QLabel()
        row.addWidget(self.second_label)
        self.second_combo = QComboBox()
        self.second_combo.currentIndexChanged.connect(
            lambda _i: self.secondChosen.emit(self.second_combo.currentData() or "")
        )
        row.addWidget(self.second_combo, 1)
        self.search_label = QLabel()
        row.addWidget(self.search_label)
        self.search_edit = QLineEdit()
        self.search_edit.setClearButtonEnabled(True)
        self._debounce = QTimer(self)
        self._debounce.setSingleShot(True)
        self._debounce.setInterval(SEARCH_DEBOUNCE_MS)
        self._debounce.timeout.connect(lambda: self.filterChanged.emit(self.search_edit.text()))
        self.search_edit.textChanged.connect(self._debounce.start)
        row.addWidget(self.search_edit, 1)
        box.addLayout(row)
        self.counts = _wrap_label(QLabel())
        box.addWidget(self.counts)
        split = QSplitter(Qt.Orientation.Horizontal)
        split.setObjectName("vocab-diff")
        self.shared, self.only_first, self.only_second = RowsBox(), RowsBox(), RowsBox()
        self.census = RowsBox(long=False)
        for w in (self.shared, self.only_first, self.only_second, self.census):
            split.addWidget(w)
        box.addWidget(split, 1)
        self.result = None
        self.names = ("A", "B")
        self.retranslate()

    def columns(self) -> tuple[RowsBox, RowsBox, RowsBox]:
        return self.shared, self.only_first, self.only_second

    def set_choices(self, names: list[tuple[str, str]], current: str | None) -> None:
        """(shown name, name) of the encoders offered as B."""
        self.second_combo.blockSignals(True)
        self.second_combo.clear()
        self.second_combo.addItem("—", None)
        for shown_name, name in names:
            self.second_combo.addItem(shown_name, name)
        i = self.second_combo.findData(current) if current else 0
        self.second_combo.setCurrentIndex(max(i, 0))
        self.second_combo.blockSignals(False)

    def retranslate(self) -> None:
        self.second_label.setText(self.tr("Compare with (B):"))
        self.search_label.setText(self.tr("Search:"))
        self.search_edit.setPlaceholderText(self.tr("token text or hex bytes"))
        self.show_diff(self.result, *self.names)

    def show_diff(self, result, first: str, second: str) -> None:
        # before B is chosen its name is empty: the lists are titled by the letters the summary uses
        first, second = first or "A", second or "B"
        self.result, self.names = result, (first, second)
        tables = (result.shared, result.only_first, result.only_second) if result is not None else (None,) * 3
        for box, table in zip(self.columns(), tables, strict=True):
            box.set_table(table)
        self.census.set_table(self._census_table(result))
        paint_in_turns([self.census, *self.columns()])
        self.census.set_title(self.tr("Tokens per script"))
        c = result.counts if result is not None else {}
        self.shared.set_title(self.tr("Shared ({n})").format(n=f"{c.get('shared', 0):,}"))
        self.only_first.set_title(self.tr("Only in {name} ({n})").format(name=first, n=f"{c.get('only_first', 0):,}"))
        self.only_second.set_title(
            self.tr("Only in {name} ({n})").format(name=second, n=f"{c.get('only_second', 0):,}")
        )
        if result is None:
            self.counts.setText(self.tr("Choose a second vocabulary (B) to compare with."))
            return
        self.counts.setText(
            self.tr(
                "A = {a}: {a_size} tokens; B = {b}: {b_size} tokens. Shared {shared} ({same} with the same id, "
                "{moved} renumbered), only in A {only_a}, only in B {only_b}. Special tokens: {sp_shared} shared, "
                "{sp_a} only in A, {sp_b} only in B."
            ).format(
                a=first,
                b=second,
                a_size=f"{c['first_size']:,}",
                b_size=f"{c['second_size']:,}",
                shared=f"{c['shared']:,}",
                same=f"{c['same_id']:,}",
                moved=f"{c['renumbered']:,}",
                only_a=f"{c['only_first']:,}",
                only_b=f"{c['only_second']:,}",
                sp_shared=f"{c['specials_shared']:,}",
                sp_a=f"{c['specials_only_first']:,}",
                sp_b=f"{c['specials_only_second']:,}",
            )
        )

    def _census_table(self, result):
        if result is None:
            return None
        a, b = result.census["A"], result.census["B"]
        scripts = list(a)
        return row_table(
            ("script", *self.names),
            [scripts, [a[s] for s in scripts], [b[s] for s in scripts]],
            [s.encode() for s in scripts],
        )


class VocabMapsTab(QWidget):
    kindChosen = Signal(str)

    def __init__(self, parent=None):
        super().__init__(parent)
        box = QVBoxLayout(self)
        row = QHBoxLayout()
        self.kind_combo = QComboBox()
        self.kind_combo.addItem("", "numbers")
        self.kind_combo.addItem("", "indentation")
        self.kind_combo.currentIndexChanged.connect(lambda _i: self.kindChosen.emit(self.kind_combo.currentData()))
        row.addWidget(self.kind_combo)
        row.addStretch(1)
        self.png_button = QPushButton()
        self.csv_button = QPushButton()
        row.addWidget(self.png_button)
        row.addWidget(self.csv_button)
        box.addLayout(row)
        self.title = QLabel()
        box.addWidget(self.title)
        self.heatmap = SplitHeatmap()
        box.addWidget(self.heatmap, 1)
        self.patterns = _wrap_label(QLabel())
        box.addWidget(self.patterns)
        self.split_map = None
        self.result = None
        self.retranslate()

    def retranslate(self) -> None:
        self.kind_combo.setItemText(0, self.tr("Numbers 0–9999"))
        self.kind_combo.setItemText(1, self.tr("Indentation: 1–16 spaces or tabs"))
        self.png_button.setText(self.tr("Export PNG…"))
        self.csv_button.setText(self.tr("Export CSV…"))
        self.show_map(self.result)

    def show_map(self, result) -> None:
        """Draw a :class:`~tokviz.ui.vocab.jobs.MapResult` (None: no map)."""
        self.result = result
        self.split_map = split_map = result.split_map if result is not None else None
        self.png_button.setEnabled(split_map is not None)
        self.csv_button.setEnabled(split_map is not None)
        columns = [self.tr("spaces"), self.tr("spaces + code"), self.tr("tabs"), self.tr("tabs + code")]
        self.heatmap.set_map(split_map, columns, result.cells if result is not None else None)
        if split_map is None:
            self.title.setText("")
            self.patterns.setText("")
            return
        if split_map.kind == "numbers":
            self.title.setText(
                self.tr(
                    "How {encoder} splits each number 0–9999 written alone (rows: hundreds, "
                    "columns: last two digits; hover a cell for its pieces)"
                ).format(encoder=split_map.encoder)
            )
        else:
            self.title.setText(
                self.tr(
                    "How {encoder} splits runs of 1–16 spaces or tabs, alone and as a code "
                    "line's indentation (hover a cell for its pieces)"
                ).format(encoder=split_map.encoder)
            )
        patterns = ", ".join(f"{p} ×{n:,}" for p, n in result.patterns)
        self.patterns.setText(
            self.tr("Most common splits (characters per piece): {patterns}").format(patterns=patterns)
        )
