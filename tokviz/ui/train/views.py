"""The Train panel's views: :class:`TrainViews` builds and owns the panel's widgets and their layout
(presentation mode included); it draws nothing of a run and decides nothing. The panel
(:mod:`tokviz.ui.train.panel`) wires the widgets' signals to its intents; the step renderer
(:mod:`tokviz.ui.train.render`) draws a snapshot into them. Also here: the corpus-sample colouring, the
paste dialog, and the speeds and export formats offered."""

from __future__ import annotations

from collections import OrderedDict

from PySide6.QtCore import QT_TRANSLATE_NOOP, QCoreApplication, QEvent, QObject, QSize, Qt, QTimer
from PySide6.QtGui import QColor, QPalette
from PySide6.QtWidgets import (
    QAbstractItemView,
    QApplication,
    QCheckBox,
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QFrame,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QMenu,
    QPlainTextEdit,
    QProgressBar,
    QPushButton,
    QScrollArea,
    QSizePolicy,
    QSlider,
    QSpinBox,
    QSplitter,
    QVBoxLayout,
    QWidget,
)

from tokviz.core.jamo import recompose
from tokviz.core.pretokenize import PATTERNS
from tokviz.ui.common.message_bar import MessageBar
from tokviz.ui.fonts import mono_font, ui_font
from tokviz.ui.inspect.dropout_view import DropoutView
from tokviz.ui.token_colors import readable_on, text_color_on, token_colors
from tokviz.ui.train.plots import TrainPlots
from tokviz.ui.train.sample import Run, TokenLinesView, mark_runs
from tokviz.ui.train.tree import MergeTreeView
from tokviz.ui.train.vocab import VocabFilter, VocabModel
from tokviz.ui.train.vocab_table import VocabTable
from tokviz.ui.train_replay import Segment

translate = QCoreApplication.translate  # the panel's translation context, named in each call

SPEEDS = [
    (QT_TRANSLATE_NOOP("TrainPanel", "1 merge/s"), 1.0),
    (QT_TRANSLATE_NOOP("TrainPanel", "3 merges/s"), 3.0),
    (QT_TRANSLATE_NOOP("TrainPanel", "10 merges/s"), 10.0),
    (QT_TRANSLATE_NOOP("TrainPanel", "30 merges/s"), 30.0),
    (QT_TRANSLATE_NOOP("TrainPanel", "100 merges/s"), 100.0),
    (QT_TRANSLATE_NOOP("TrainPanel", "1000 merges/s"), 1000.0),
    (QT_TRANSLATE_NOOP("TrainPanel", "as fast as possible"), None),
]
DEFAULT_SPEED = 2
FORMATS = [
    ("tokviz", QT_TRANSLATE_NOOP("TrainPanel", "tokviz model (*.json)")),
    ("tiktoken", QT_TRANSLATE_NOOP("TrainPanel", "tiktoken rank file (*.tiktoken)")),
    ("subword-nmt", QT_TRANSLATE_NOOP("TrainPanel", "subword-nmt codes (*.codes *.txt)")),
    ("gpt2", QT_TRANSLATE_NOOP("TrainPanel", "GPT-2 vocab.json + merges.txt (*.json)")),
]
PROBE_TEXT = "토크나이저는 글자를 조각으로 나눕니다. Tokenizers split words into pieces 🙂"
# "just merged": a signal red that no palette colour can be taken for (CIEDE2000 > 16 from every
# colour of both palettes and the grey of split characters; tested), white text at 4.5:1
FRESH_BG = "#ee0022"


def speed_index(pace: float) -> int:
    """Index in SPEEDS of the animated speed nearest to ``pace`` merges per second."""
    animated = [(i, v) for i, (_, v) in enumerate(SPEEDS) if v is not None]
    return min(animated, key=lambda iv: abs(iv[1] - pace))[0]


NEWLINE_MARK = "↵"  # the newline marker of the Inspector and Compare (core.unicode.invisible_marker)


def segment_runs(segments: list[Segment], *, dark: bool = False) -> tuple[Run, ...]:
    """Coloured runs for a segmented line (shared token colours); the tokens the current merge made
    stand out in red (``FRESH_BG``).

    Byte tokens that hold only part of a character are drawn as one grey run per group of whole
    characters, with the number of tokens the run takes as a subscript (``영₃`` = three byte tokens):
    readable on a projector, and the subscript shrinks as merges assemble the bytes.
    A line segmented by a model trained on jamo shows its pieces recomposed where their jamo form
    whole syllables (``core.jamo.recompose``), the rest as jamo.
    Neighbours drawn in the same colour (a repeated piece, a palette collision, two fresh pieces)
    are told apart by an outline on every other one (``Run.mark``, as the Inspector's ``token_marks``).
    """
    ids = [s.token_id for s in segments if s.token_id is not None]
    colors = token_colors(ids, dark=dark)
    partial_bg, partial_fg = ("#3a3d44", "#c8c8c8") if dark else ("#e3e4e8", "#4a4d55")
    out: list[Run] = []
    k = 0  # index into colors
    i = 0
    while i < len(segments):
        seg = segments[i]
        if seg.token_id is None:
            out.append(Run(seg.text))
            i += 1
            continue
        if seg.partial:
            data = b""
            j = i
            fresh = False
            text = ""
            while j < len(segments) and segments[j].token_id is not None:
                data += segments[j].data
                fresh = fresh or segments[j].fresh
                j += 1
                try:
                    text = data.decode("utf-8")
                    break
                except UnicodeDecodeError:
                    text = data.decode("utf-8", "replace")
            bg, fg = (FRESH_BG, "#ffffff") if fresh else (partial_bg, partial_fg)
            out.append(Run(recompose(text).replace("\n", NEWLINE_MARK), bg, fg, fresh, str(j - i)))
            k += j - i
            i = j
            continue
        color = colors[k]
        k += 1
        i += 1
        text = recompose(seg.text).replace("\n", NEWLINE_MARK)
        if seg.fresh:
            out.append(Run(text, FRESH_BG, "#ffffff", True))
        else:
            out.append(Run(text, color.name(), text_color_on(color).name()))
    return tuple(mark_runs(out))


def muted_color(palette: QPalette) -> QColor:
    """Secondary-text colour for ``palette``'s theme: its placeholder grey, darkened (light theme) or
    lightened (dark theme) to a 4.5:1 contrast on the window colour. The plain greys were not
    readable enough: #808080 is ~3.6:1 on the light window, the light theme's placeholder ~2.9:1."""
    return readable_on(palette.color(QPalette.ColorRole.PlaceholderText), palette.color(QPalette.ColorRole.Window))


def mute_label(label: QLabel) -> None:
    """Grey secondary text (call again on a theme change). A palette, not a style sheet: a label
    with its own style sheet kept its size when the app's font grew (presentation mode)."""
    # from the application's palette, not the label's: the label's own palette still holds the
    # previous theme's colours after a theme change (the muted grey was computed against them)
    pal = QPalette(QApplication.palette())
    pal.setColor(QPalette.ColorRole.WindowText, muted_color(pal))
    label.setPalette(pal)


# one line as tall as a step's labels get: Hangul on a token's colour (the fallback font's line is a
# pixel taller than the interface font's)
TALL_LINE = '<b>Ag</b> <span style="background:#888888">&nbsp;가 1/3&nbsp;</span>'


_MEASURED: OrderedDict[tuple, int] = OrderedDict()  # (text, width, font, wrap) -> height, newest last
MEASURED_KEPT = 512  # a run's banners and "why" lines come back when scrubbing; older ones are dropped


def _measure_key(label: QLabel, text: str, width: int, minimum: int) -> tuple:
    m = label.contentsMargins()  # a style sheet's padding or border included
    return (
        text,
        width,
        label.font().key(),
        minimum,  # a label's height for a width is never less than its minimum height
        label.wordWrap(),
        label.margin(),
        label.indent(),
        m.top(),
        m.bottom(),
        m.left(),
        m.right(),
    )


def _remember(key: tuple, height: int) -> int:
    _MEASURED[key] = height
    if len(_MEASURED) > MEASURED_KEPT:
        _MEASURED.popitem(last=False)
    return height


def measured_height(label: QLabel, width: int) -> int:
    """``label.heightForWidth(width)``, measured once per text, width and font: each measure lays out
    the whole rich text, and a frame measured the banner and "why" line several times."""
    key = _measure_key(label, label.text(), width, label.minimumHeight())
    height = _MEASURED.get(key)
    if height is None:
        return _remember(key, label.heightForWidth(width) if width > 1 else label.sizeHint().height())
    _MEASURED.move_to_end(key)
    return height


def measure_ahead(label: QLabel, text: str, width: int, minimum: int | None = None) -> int:
    """What :func:`measured_height` will say once ``label`` shows ``text``, measured now on a hidden
    twin of the label (``label`` keeps showing its text): measuring a text the label does not show
    by setting it and back parsed and laid out its rich text twice more (the banner's two-row table).
    Measuring the text a label is about to show gains nothing: its paint then lays out what a measure
    of the label itself would have laid out for it. ``minimum``: the label's minimum height to measure
    with (default: the one it has; 0 gives the text's own height)."""
    minimum = label.minimumHeight() if minimum is None else minimum
    key = _measure_key(label, text, width, minimum)
    if key in _MEASURED:
        return _MEASURED[key]
    twin = label.findChild(QLabel, "measuring twin", Qt.FindChildOption.FindDirectChildrenOnly)
    if twin is None:
        twin = QLabel(label)
        twin.setObjectName("measuring twin")
        twin.setVisible(False)  # never drawn: a child explicitly hidden stays hidden when the label shows
    twin.setFont(label.font())
    twin.setTextFormat(label.textFormat())
    twin.setWordWrap(label.wordWrap())
    twin.setMargin(label.margin())
    twin.setIndent(label.indent())
    twin.setAlignment(label.alignment())
    twin.setContentsMargins(label.contentsMargins())
    twin.setText(text)
    height = twin.heightForWidth(width) if width > 1 else twin.sizeHint().height()  # (the twin has no minimum)
    twin.clear()  # holds no text of its own: a language switch later left the last English banner in it
    return _remember(key, max(height, minimum))


_remeasure_due = False


def remeasure_after_font_change() -> None:
    """Forget every height measured, and fit every :class:`LineFrame` again, once a font change (a zoom,
    presentation mode) has gone through every widget.

    The application's font reaches its widgets through posted events: measured before it has, a label
    is still laid out in the old font, and its height was remembered under the new font's name (the next
    window's "Merge tree" title started 1.5 lines high and shrank at its first run, re-laying out the
    panel and every axis of its plots), and a line held for the old font stayed held (after a zoom and
    back, the title kept its zoomed height)."""
    global _remeasure_due
    if not _remeasure_due:
        _remeasure_due = True
        QTimer.singleShot(0, _remeasure)


def _remeasure() -> None:
    global _remeasure_due
    _remeasure_due = False
    _MEASURED.clear()
    for widget in QApplication.allWidgets():
        if isinstance(widget, LineFrame):
            if widget.label.property("tall_line_for") is not None:
                hold_line_height(widget.label)  # its one line measured again, in the font it now has
            widget._refit()


class LineFrame(QWidget):
    """Holds one label whose text changes every frame (the step counter, the merge banner, "why this
    pair", the table's and tree's titles) at a size that changes only when the label needs it to.

    A label in a layout re-laid out the whole Train panel and the page around it at each setText
    (~5-8 ms of every frame): Qt passes a label's geometry change up through every layout. Here the
    label's change stops at this frame, which has no layout; the frame asks its own layout for a new
    size only when the label's minimum size or the room its text needs changed (a wrapped label: its
    measured height at the frame's width; a one-line label: its size hint)."""

    def __init__(self, label: QLabel, horizontal: QSizePolicy.Policy = QSizePolicy.Policy.Fixed) -> None:
        super().__init__()
        self.label = label
        label.setParent(self)
        self._held = QSize(0, 0)
        self.setSizePolicy(horizontal, QSizePolicy.Policy.Fixed)
        if label.minimumWidth() > 0 and horizontal == QSizePolicy.Policy.Ignored:
            self.setMinimumWidth(label.minimumWidth())
        label.installEventFilter(self)
        self._refit(spread=False)

    def sizeHint(self) -> QSize:
        return QSize(self._held)

    def minimumSizeHint(self) -> QSize:
        return QSize(self._held)

    def needed(self) -> QSize:
        """The size the label's text and minimum size ask for at the frame's width."""
        label = self.label
        if label.wordWrap():
            height = measured_height(label, self.width() if self.isVisible() else label.width())
            return QSize(label.minimumWidth(), max(label.minimumHeight(), height))
        needed = label.sizeHint().expandedTo(label.minimumSize())
        if self.sizePolicy().horizontalPolicy() == QSizePolicy.Policy.Ignored:
            needed.setWidth(label.minimumWidth())  # the layout gives the width: a longer text is no news
        return needed

    def _refit(self, spread: bool = True) -> None:
        needed = self.needed()
        if needed != self._held:
            self._held = needed
            if spread:
                self.updateGeometry()  # the one re-layout: the label needs another size

    def event(self, event: QEvent) -> bool:
        kind = event.type()
        if kind == QEvent.Type.LayoutRequest:
            self._refit()  # the label changed: only a size it needs spreads further
        elif kind == QEvent.Type.FontChange:
            remeasure_after_font_change()
        return super().event(event)

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        kind = event.type()
        if watched is self.label and kind in (QEvent.Type.ShowToParent, QEvent.Type.HideToParent):
            self.setVisible(kind == QEvent.Type.ShowToParent)  # the label shown or hidden: its room too
        return False

    def resizeEvent(self, event) -> None:
        self.label.setGeometry(self.rect())
        if self.label.wordWrap() and event.oldSize().width() != event.size().width():
            self._refit()  # another width: the wrapped text may take another number of lines
        super().resizeEvent(event)


ONE_LINE_WIDTH = 4096  # wide enough for TALL_LINE on one line at any font a screen shows


def hold_line_height(label: QLabel) -> None:
    """Let rich-text ``label`` be at least one :data:`TALL_LINE` high from now on: a label that grew
    by a pixel when its text first held Hangul re-laid out the panel, and every plot's axes were
    regenerated in that frame (~80 ms of the GUI thread)."""
    key = f"{label.font().key()}/{label.minimumHeight()}"
    if label.property("tall_line_for") == key:
        return  # held already (a minimum set since, e.g. 0 between runs, is held again)
    text, minimum = label.text(), label.minimumHeight()
    # a minimum set by someone else is kept; the one held here for another font is not, and the line is
    # measured without it (a label's height for a width is never less than its minimum: after a zoom and
    # back, the title kept its zoomed height for good)
    held = label.property("tall_line_for")
    own = held is not None and held.rpartition("/")[2] == str(minimum)
    label.setMinimumHeight(0)
    label.setText(TALL_LINE)  # one short line at any but a tiny width
    # measured wide: the label's width at this moment may be a layout's passing one (a few pixels
    # while "why this pair" moves into presentation mode's column), where the one line wrapped into
    # two and the block then held twice its height until the next run
    one_line = label.heightForWidth(ONE_LINE_WIDTH)
    height = one_line if own else max(one_line, minimum)
    label.setText(text)
    label.setMinimumHeight(height)
    label.setProperty("tall_line_for", f"{label.font().key()}/{height}")


class PasteDialog(QDialog):
    def __init__(self, parent=None):
        super().__init__(parent)
        self.setWindowTitle(self.tr("Paste a corpus"))
        lay = QVBoxLayout(self)
        lay.addWidget(QLabel(self.tr("One document or sentence per line:")))
        self.edit = QPlainTextEdit()
        self.edit.setFont(mono_font())
        lay.addWidget(self.edit)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel)
        buttons.accepted.connect(self.accept)
        buttons.rejected.connect(self.reject)
        lay.addWidget(buttons)
        self.resize(600, 400)


TREE_MIN_HEIGHT = 180
TREE_MIN_PRESENTING = 100  # presentation mode at 768 pixels: the sample's lines need the height


# the widgets the panel's other parts, tests and scripts read through the panel (``panel.mode_combo``)
WIDGETS = (
    "corpus_combo", "open_button", "paste_button", "mode_combo", "pattern_label", "pattern_combo", "hangul_check",
    "jamo_check", "merges_spin", "minfreq_spin", "save_button", "export_button", "cancel_export_action",
    "settings_bar", "train_button", "pause_button", "step_button", "end_button", "cancel_button", "reset_button",
    "speed_combo", "scrubber", "step_label", "progress_bar", "plots_button", "message", "merge_banner", "why_label",
    "sample_title", "sample_legend", "sample_view", "probe_box", "probe_edit", "probe_view", "probe_status",
    "probe_dropout", "vocab_pane", "vocab_title", "search_edit", "vocab_model", "vocab_filter", "vocab_view",
    "tree_title", "tree_view", "tree_scroll", "plots", "splitter",
)  # fmt: skip


class TrainViews:
    """Builds the Train panel's widgets on ``host`` (the panel: their parent and layout) and owns them.
    Signals are left unconnected but for the views' own layout (the plots button, the search box, the
    Hangul/Jamo exclusion): the panel wires them to what they ask for."""

    def __init__(self, host: QWidget, corpus_label: str, *, work, dark: bool) -> None:
        self.host = host
        self._presenting = False
        self._sizes_before: list[int] | None = None  # the splitter's sizes before presentation mode
        self._why_at = 0  # where "why this pair" sits in the panel's column outside presentation mode
        self._build(corpus_label, work, dark)

    def set_presentation(self, on: bool) -> None:
        """Presentation mode: the sample and the banner get the screen. The settings row and the
        probe are hidden, the sample's caption is one short line, "why this pair" moves above the
        vocabulary (beside the sample instead of above it), and the plots give their place to the
        vocabulary and tree, a button away (:meth:`show_plots`). At 1366×768 the sample then shows
        twice the lines. Leaving it gives the previous layout back."""
        if on == self._presenting:
            return
        self._presenting = on
        self.settings_bar.setVisible(not on)
        self.probe_box.setVisible(not on)
        self.plots_button.setVisible(on)
        self.sample_title.setText(self._sample_captions[1 if on else 0])
        self.sample_title.setToolTip(self._sample_captions[0] if on else "")
        # the tree shrinks with the room it has beside a readable sample (its labels stay legible)
        self.tree_scroll.setMinimumHeight(TREE_MIN_PRESENTING if on else TREE_MIN_HEIGHT)
        if on:
            self._why_at = self._root.indexOf(self.why_frame)
            self._vocab_layout.insertWidget(0, self.why_frame)
            self._sizes_before = self.splitter.sizes()
            total = sum(self._sizes_before) or 1
            self.splitter.setSizes([total * 62 // 100, total * 38 // 100, total * 38 // 100])
        else:
            self._root.insertWidget(self._why_at, self.why_frame)
        self.show_plots(on and self.plots_button.isChecked())
        if not on and self._sizes_before:
            self.splitter.setSizes(self._sizes_before)

    def show_plots(self, shown: bool) -> None:
        """In presentation mode, the plots or the vocabulary and tree beside the sample (one of the
        two: both beside a readable sample do not fit a projector); outside it, both."""
        presenting = self._presenting
        self.plots_button.blockSignals(True)
        self.plots_button.setChecked(shown and presenting)
        self.plots_button.blockSignals(False)
        self.plots.setVisible(not presenting or shown)
        self.vocab_pane.setVisible(not presenting or not shown)

    def _build(self, corpus_label: str, work, dark: bool) -> None:
        root = QVBoxLayout(self.host)
        self._root = root
        root.setContentsMargins(8, 6, 8, 6)
        root.setSpacing(6)

        self._build_corpus_rows(root, corpus_label)
        self._build_transport(root)
        self._build_banners(root)
        split = QSplitter(Qt.Orientation.Horizontal)
        split.addWidget(self._build_sample_pane(work))
        split.addWidget(self._build_vocab_pane())
        # right: plots
        self.plots = TrainPlots(dark=dark)
        split.addWidget(self.plots)
        split.setStretchFactor(0, 4)
        split.setStretchFactor(1, 3)
        split.setStretchFactor(2, 4)
        split.setSizes([460, 450, 490])
        self.splitter = split
        root.addWidget(split, 1)

    def _build_corpus_rows(self, root: QVBoxLayout, corpus_label: str) -> None:
        """The corpus picker with Save and Export, and the settings row beneath."""
        # corpus and settings
        row1 = QHBoxLayout()
        row1.addWidget(QLabel(translate("TrainPanel", "Corpus")))
        self.corpus_combo = QComboBox()
        self.corpus_combo.setMinimumWidth(220)
        self.corpus_combo.addItem(corpus_label)
        row1.addWidget(self.corpus_combo)
        self.open_button = QPushButton(translate("TrainPanel", "Open file…"))
        self.paste_button = QPushButton(translate("TrainPanel", "Paste…"))
        row1.addWidget(self.open_button)
        row1.addWidget(self.paste_button)
        # settings on a row of their own, so the panel fits a 1024-pixel-wide screen
        settings_row = QHBoxLayout()
        settings_row.addWidget(QLabel(translate("TrainPanel", "Mode")))
        self.mode_combo = QComboBox()
        self.mode_combo.addItem(translate("TrainPanel", "byte (UTF-8 bytes)"), "byte")
        self.mode_combo.addItem(translate("TrainPanel", "char (</w> words)"), "char")
        settings_row.addWidget(self.mode_combo)
        self.pattern_label = QLabel(translate("TrainPanel", "Pattern"))
        settings_row.addWidget(self.pattern_label)
        self.pattern_combo = QComboBox()
        # the model patterns keep their names; the two generic ones are words, so they are translated
        shown = {
            "whitespace": translate("TrainPanel", "whitespace"),
            "none": translate("TrainPanel", "none (whole line)"),
        }
        for name in PATTERNS:
            self.pattern_combo.addItem(shown.get(name, name), name)
        self.pattern_combo.setCurrentIndex(self.pattern_combo.findData("gpt4"))
        settings_row.addWidget(self.pattern_combo)
        self.hangul_check = QCheckBox(translate("TrainPanel", "Hangul only"))
        self.hangul_check.setToolTip(
            translate("TrainPanel", "Count only Hangul and spaces (the classic Korean BPE tutorial's preset)")
        )
        settings_row.addWidget(self.hangul_check)
        self.jamo_check = QCheckBox(translate("TrainPanel", "Jamo"))
        self.jamo_check.setToolTip(
            translate(
                "TrainPanel",
                "Split Hangul syllables into their conjoining jamo (NFD) before counting: 68 "
                "letters instead of 11,172 syllables. Pieces that form whole syllables are shown as syllables.",
            )
        )
        settings_row.addWidget(self.jamo_check)
        # Hangul-only keeps syllables and compatibility jamo only: it would blank decomposed text
        self.jamo_check.toggled.connect(lambda on: on and self.hangul_check.setChecked(False))
        self.hangul_check.toggled.connect(lambda on: on and self.jamo_check.setChecked(False))
        settings_row.addWidget(QLabel(translate("TrainPanel", "Merges")))
        self.merges_spin = QSpinBox()
        self.merges_spin.setRange(1, 1_000_000)
        self.merges_spin.setValue(300)
        settings_row.addWidget(self.merges_spin)
        settings_row.addWidget(QLabel(translate("TrainPanel", "Min freq")))
        self.minfreq_spin = QSpinBox()
        self.minfreq_spin.setRange(1, 1_000_000)
        self.minfreq_spin.setValue(2)
        settings_row.addWidget(self.minfreq_spin)
        settings_row.addStretch(1)
        row1.addStretch(1)
        self.save_button = QPushButton(translate("TrainPanel", "Save model…"))
        row1.addWidget(self.save_button)
        # for slides: the view as an image, a range of steps as an animation
        self.export_button = QPushButton(translate("TrainPanel", "Export…"))
        menu = QMenu(self.export_button)
        self.image_action = menu.addAction(translate("TrainPanel", "Image of the view (PNG)…"))
        self.animation_action = menu.addAction(translate("TrainPanel", "Animation of the steps (GIF, APNG)…"))
        self.cancel_export_action = menu.addAction(translate("TrainPanel", "Cancel the export"))
        self.cancel_export_action.setEnabled(False)
        self.export_button.setMenu(menu)
        row1.addWidget(self.export_button)
        root.addLayout(row1)
        # the settings row is hidden in presentation mode: the sample and the banner need the height
        self.settings_bar = QWidget()
        settings_row.setContentsMargins(0, 0, 0, 0)
        self.settings_bar.setLayout(settings_row)
        root.addWidget(self.settings_bar)

    def _build_transport(self, root: QVBoxLayout) -> None:
        """Train, pause, step, run to end, cancel, reset; the speed, the scrubber and the step."""
        # transport
        row2 = QHBoxLayout()
        self.train_button = QPushButton(translate("TrainPanel", "▶ Train"))
        self.pause_button = QPushButton(translate("TrainPanel", "⏸ Pause"))
        self.step_button = QPushButton(translate("TrainPanel", "Step"))
        self.end_button = QPushButton(translate("TrainPanel", "⏭ Run to end"))
        self.cancel_button = QPushButton(translate("TrainPanel", "■ Cancel"))
        self.reset_button = QPushButton(translate("TrainPanel", "Reset"))
        for b in (
            self.train_button,
            self.pause_button,
            self.step_button,
            self.end_button,
            self.cancel_button,
            self.reset_button,
        ):
            row2.addWidget(b)
        row2.addSpacing(8)
        row2.addWidget(QLabel(translate("TrainPanel", "Speed")))
        self.speed_combo = QComboBox()
        for label, _ in SPEEDS:
            self.speed_combo.addItem(translate("TrainPanel", label))
        self.speed_combo.setCurrentIndex(DEFAULT_SPEED)
        row2.addWidget(self.speed_combo)
        self.scrubber = QSlider(Qt.Orientation.Horizontal)
        self.scrubber.setRange(0, 0)
        row2.addWidget(self.scrubber, 1)
        self.step_label = QLabel(translate("TrainPanel", "step 0"))
        self.step_label.setMinimumWidth(150)
        row2.addWidget(LineFrame(self.step_label))
        self.progress_bar = QProgressBar()
        self.progress_bar.setMaximumWidth(220)
        self.progress_bar.setFormat(translate("TrainPanel", "counting… %p%"))
        self.progress_bar.hide()
        row2.addWidget(self.progress_bar)
        # presentation mode shows the plots or the vocabulary beside the sample; this switches
        self.plots_button = QPushButton(translate("TrainPanel", "Plots"))
        self.plots_button.setCheckable(True)
        self.plots_button.setToolTip(translate("TrainPanel", "Show the plots instead of the vocabulary and merge tree"))
        self.plots_button.toggled.connect(self.show_plots)
        self.plots_button.hide()
        row2.addWidget(self.plots_button)
        root.addLayout(row2)

    def _build_banners(self, root: QVBoxLayout) -> None:
        """The message bar, the merge banner and "why this pair"."""
        self.message = MessageBar()
        root.addWidget(self.message)

        # the merge of the current step, big enough for a projector
        self.merge_banner = QLabel()
        self.merge_banner.setTextFormat(Qt.TextFormat.RichText)
        self.merge_banner.setFont(mono_font(20))
        self.merge_banner.setMinimumHeight(46)  # render.BANNER_MIN_HEIGHT
        # a long merge wraps instead of widening the window (at 1366 px it pushed Save off screen)
        self.merge_banner.setWordWrap(True)
        self.merge_banner.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Preferred)
        self.merge_banner.setMinimumWidth(1)  # an unbreakable piece must not set the window's width
        root.addWidget(LineFrame(self.merge_banner, QSizePolicy.Policy.Ignored))
        # why this pair: the runners-up with their counts
        self.why_label = QLabel()
        self.why_label.setTextFormat(Qt.TextFormat.RichText)
        self.why_label.setWordWrap(True)
        self.why_label.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Preferred)
        self.why_label.setMinimumWidth(1)  # an unbreakable piece must not set the window's width
        self.why_frame = LineFrame(self.why_label, QSizePolicy.Policy.Ignored)
        root.addWidget(self.why_frame)

    def _build_sample_pane(self, work) -> QWidget:
        """Left: the corpus sample, and the probe with its dropout view."""
        # left: corpus sample and probe
        left = QWidget()
        ll = QVBoxLayout(left)
        ll.setContentsMargins(0, 0, 0, 0)
        # the caption, and its one-line form for presentation mode (the long one is then its tooltip)
        self._sample_captions = (
            translate(
                "TrainPanel",
                "<b>Corpus sample</b> — pieces at the current step (12 colours repeat: one colour can be "
                "different tokens); the merge just made in red, lines that show it first",
            ),
            translate("TrainPanel", "<b>Corpus sample</b> — the merge just made in red"),
        )
        self.sample_title = QLabel(self._sample_captions[0])
        # captions wrap: a one-line caption would set the pane's minimum width, and in presentation
        # mode on a 1366-pixel projector it pushed the plots off the screen
        self.sample_title.setWordWrap(True)
        ll.addWidget(self.sample_title)
        # what the grey pieces' small numbers mean, on screen (a projector shows no tooltips)
        self.sample_legend = QLabel(translate("TrainPanel", "grey 영₃ = one character still split into 3 byte tokens"))
        mute_label(self.sample_legend)
        self.sample_legend.setWordWrap(True)
        ll.addWidget(self.sample_legend)
        self.sample_view = TokenLinesView()
        self.sample_view.setFont(ui_font(13))
        self.sample_view.setToolTip(self.sample_legend.text())
        # the scroll bar stays: appearing and going as lines are re-segmented, it changed the width
        # and re-wrapped every line several times a second during a run (~10 ms each on the GUI thread)
        self.sample_view.setVerticalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOn)
        ll.addWidget(self.sample_view, 3)
        # the probe is hidden in presentation mode (the sample gets its height)
        self.probe_box = QWidget()
        pl = QVBoxLayout(self.probe_box)
        pl.setContentsMargins(0, 0, 0, 0)
        probe_title = QLabel(
            translate("TrainPanel", "<b>Probe</b> — type anything; it is segmented at the current step")
        )
        probe_title.setWordWrap(True)
        pl.addWidget(probe_title)
        self.probe_edit = QLineEdit(PROBE_TEXT)
        self.probe_edit.setFont(ui_font(12))
        self.probe_edit.setCursorPosition(0)
        pl.addWidget(self.probe_edit)
        # the same line view as the sample: the probe's pieces are drawn (and readable) the same way
        self.probe_view = TokenLinesView()
        self.probe_view.setFont(ui_font(14))
        self.probe_view.setMaximumHeight(90)
        self.probe_view.setToolTip(self.sample_legend.text())
        pl.addWidget(self.probe_view, 1)
        self.probe_status = QLabel()
        mute_label(self.probe_status)
        pl.addWidget(LineFrame(self.probe_status, QSizePolicy.Policy.Ignored))  # its counts change every frame
        # BPE-dropout on the probe with the model at the step on screen: the Inspector's view (P, seed,
        # Re-roll, how often each boundary appears over many samples); it follows the step when the
        # animation rests (render.py: _sync_probe_dropout)
        self.probe_dropout = DropoutView(compact=True, work=work)
        # folded: the sample and its boundary bars open with the title (the panel fits 1024×768)
        self.probe_dropout.title.setChecked(False)
        pl.addWidget(self.probe_dropout)
        ll.addWidget(self.probe_box, 1)
        return left

    def _build_vocab_pane(self) -> QWidget:
        """Middle: the learned tokens and the merge tree."""
        # middle: vocabulary and merge tree
        mid = QWidget()
        self.vocab_pane = mid
        ml = QVBoxLayout(mid)
        self._vocab_layout = ml
        ml.setContentsMargins(0, 0, 0, 0)
        head = QHBoxLayout()
        self.vocab_title = QLabel(translate("TrainPanel", "<b>Learned tokens</b>"))
        head.addWidget(LineFrame(self.vocab_title))
        self.search_edit = QLineEdit()
        self.search_edit.setPlaceholderText(translate("TrainPanel", "search token or hex…"))
        self.search_edit.setClearButtonEnabled(True)
        head.addWidget(self.search_edit, 1)
        ml.addLayout(head)
        self.vocab_model = VocabModel(self.host)
        self.vocab_filter = VocabFilter(self.host)
        self.vocab_filter.setSourceModel(self.vocab_model)
        self.search_edit.textChanged.connect(self.vocab_filter.set_query)
        self.vocab_view = VocabTable()
        self.vocab_view.setModel(self.vocab_filter)
        self.vocab_view.setSortingEnabled(False)
        self.vocab_view.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.vocab_view.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.vocab_view.verticalHeader().hide()
        self.vocab_view.verticalHeader().setDefaultSectionSize(22)
        ml.addWidget(self.vocab_view, 3)
        self.tree_title = QLabel(translate("TrainPanel", "<b>Merge tree</b>"))
        self.tree_title.setWordWrap(True)
        ml.addWidget(LineFrame(self.tree_title, QSizePolicy.Policy.Ignored))
        self.tree_view = MergeTreeView()
        # a tree too big for its place at readable labels scrolls rather than shrinking its text
        self.tree_scroll = QScrollArea()
        self.tree_scroll.setWidget(self.tree_view)
        self.tree_scroll.setWidgetResizable(True)
        self.tree_scroll.setFrameShape(QFrame.Shape.NoFrame)
        self.tree_scroll.setMinimumHeight(TREE_MIN_HEIGHT)
        ml.addWidget(self.tree_scroll, 2)
        return mid
