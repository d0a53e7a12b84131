"""The Inspector's widgets and their arrangement: the toolbar (encoder, normalization, special tokens,
text/ids, open, copy, export), the message bar, the editor and chat composer beside the token view,
the counts, and the byte layers with the selection's details."""

from __future__ import annotations

from PySide6.QtCore import QCoreApplication, QSignalBlocker, Qt
from PySide6.QtGui import QAction, QPalette, QStandardItemModel
from PySide6.QtWidgets import (
    QButtonGroup,
    QCheckBox,
    QComboBox,
    QFrame,
    QHBoxLayout,
    QLabel,
    QMenu,
    QPushButton,
    QScrollArea,
    QSplitter,
    QTabWidget,
    QToolButton,
    QVBoxLayout,
    QWidget,
)

from tokviz.ui import fonts
from tokviz.ui.common.exact_text import ExactText
from tokviz.ui.common.message_bar import MessageBar
from tokviz.ui.inspect.byte_layers import ByteLayersView
from tokviz.ui.inspect.chat_composer import ChatComposer
from tokviz.ui.inspect.dropout_view import DropoutView
from tokviz.ui.inspect.normalization_view import NormalizationView
from tokviz.ui.inspect.token_view import TokenView
from tokviz.ui.inspect.views import CountsBar, DetailsBox, LayersSplitter, TextEditor

translate = QCoreApplication.translate  # the panel's translation context, named in each call

NORMALIZATIONS = ("none", "NFC", "NFD", "NFKC", "NFKD")


class InspectWidgets:
    """Builds the Inspector's widgets (mixed into InspectPanel; the strings are InspectPanel's)."""

    def _build(self) -> None:
        root = QVBoxLayout(self)
        root.setContentsMargins(8, 8, 8, 8)
        root.addLayout(self._build_toolbar())
        self.norm_view = NormalizationView(work=self.session.work)  # hidden unless a normalization form is chosen
        root.addWidget(self.norm_view)
        top = self._build_input_and_tokens()
        layers_box = self._build_layers()
        self.counts = CountsBar()
        self.split = split = LayersSplitter(Qt.Orientation.Vertical)
        middle = QWidget()
        self._middle = ml = QVBoxLayout(middle)
        ml.setContentsMargins(0, 0, 0, 0)
        ml.addWidget(top, 1)
        ml.addWidget(self.counts)
        self.dropout_view = DropoutView(work=self.session.work)  # shown for encoders that can do BPE-dropout
        ml.addWidget(self.dropout_view)
        split.addWidget(middle)
        split.addWidget(layers_box)
        split.setStretchFactor(0, 3)
        split.setStretchFactor(1, 2)
        split.setSizes([450, 380])
        root.addWidget(split, 1)

    def _build_toolbar(self) -> QHBoxLayout:
        """Encoder, normalization, special tokens, text/ids, and the file, copy and export actions."""
        bar = QHBoxLayout()
        bar.addWidget(QLabel(translate("InspectPanel", "Encoder")))
        self.encoder_combo = QComboBox()
        self.encoder_combo.setMinimumWidth(200)
        self.encoder_combo.setModel(QStandardItemModel(self.encoder_combo))
        self.encoder_combo.activated.connect(self._on_encoder_activated)
        bar.addWidget(self.encoder_combo)
        bar.addSpacing(12)
        bar.addWidget(QLabel(translate("InspectPanel", "Normalize")))
        self.norm_combo = QComboBox()
        for form in NORMALIZATIONS:  # the forms are Unicode's names; only "none" is a word to translate
            self.norm_combo.addItem(translate("InspectPanel", form) or form if form == "none" else form, form)
        self.norm_combo.setToolTip(
            translate(
                "InspectPanel", "Unicode normalization applied before encoding (NFD splits Hangul syllables into jamo)"
            )
        )
        self.norm_combo.currentIndexChanged.connect(self._on_normalization_picked)
        bar.addWidget(self.norm_combo)
        bar.addSpacing(12)
        self.special_check = QCheckBox(translate("InspectPanel", "Special tokens"))
        self.special_check.setToolTip(
            translate("InspectPanel", "Parse special-token strings such as <|endoftext|> as single special tokens")
        )
        self.special_check.toggled.connect(self._on_special_toggled)
        bar.addWidget(self.special_check)
        bar.addSpacing(12)
        self.mode_group = QButtonGroup(self)
        for mode, title in (("text", translate("InspectPanel", "Text")), ("ids", translate("InspectPanel", "IDs"))):
            b = QToolButton()
            b.setText(title)
            b.setCheckable(True)
            b.setChecked(mode == "text")
            b.setProperty("mode", mode)
            self.mode_group.addButton(b)
            bar.addWidget(b)
        self.mode_group.buttonClicked.connect(lambda b: self.set_view_mode(b.property("mode")))
        bar.addStretch(1)
        open_text = QPushButton(translate("InspectPanel", "Open text…"))
        open_text.clicked.connect(self._choose_text_file)
        bar.addWidget(open_text)
        copy = QToolButton()
        copy.setText(translate("InspectPanel", "Copy"))
        copy.setPopupMode(QToolButton.ToolButtonPopupMode.InstantPopup)
        menu = QMenu(copy)
        for title, slot in (
            (translate("InspectPanel", "Copy text"), self.copy_text),
            (translate("InspectPanel", "Copy ids"), self.copy_ids),
            (translate("InspectPanel", "Copy as JSON"), self.copy_json),
        ):
            act = QAction(title, menu)
            act.triggered.connect(slot)
            menu.addAction(act)
        copy.setMenu(menu)
        bar.addWidget(copy)
        export = QPushButton(translate("InspectPanel", "Export PNG…"))
        export.clicked.connect(self._choose_export)
        bar.addWidget(export)
        return bar

    def _build_input_and_tokens(self) -> QSplitter:
        """The text editor and chat composer (tabs) beside the token view, with its floating messages."""
        self.editor = TextEditor()
        self.editor.setFont(fonts.mono_font(13))
        self.editor.setPlaceholderText(translate("InspectPanel", "Type or paste text here…"))
        self.editor.pasted.connect(self.paste_text)
        # the exact text beside the editor (Qt's document folds CR, CRLF and U+2029 into one break)
        self.exact_text = ExactText(self.editor, take_pastes=False)
        self.exact_text.on_paste = self.paste_text  # a paste into a read-only preview replaces the text
        # the chat composer is built when first shown (see ``composer``): most sessions never open it
        self._composer: ChatComposer | None = None
        self._chat_placeholder = QWidget()
        self.input_tabs = QTabWidget()
        self.input_tabs.addTab(self.editor, translate("InspectPanel", "Text"))
        self.input_tabs.addTab(self._chat_placeholder, translate("InspectPanel", "Chat"))
        self.input_tabs.currentChanged.connect(self._on_input_tab)
        self._size_input_pages()

        self.token_view = TokenView()
        self.token_view.selectionChanged.connect(self._on_selection)
        # floats over the tokens: a message never moves a control, and the text or chat stays in reach
        self.message_bar = MessageBar.over(self.token_view, self)

        self.input_split = top = QSplitter(Qt.Orientation.Horizontal)
        top.addWidget(self.input_tabs)
        top.addWidget(self.token_view)
        top.setStretchFactor(0, 2)
        top.setStretchFactor(1, 3)
        top.setSizes([420, 900])
        return top

    @property
    def composer(self) -> ChatComposer:
        """The chat composer, built the first time it is asked for (its tab shown, a script using it):
        it takes the place of the Chat tab's empty page, the tab shown stays the same."""
        if self._composer is None:
            composer = ChatComposer()
            composer.renderedChanged.connect(self._on_chat_rendered)
            tabs = self.input_tabs
            index = tabs.indexOf(self._chat_placeholder)
            current = tabs.currentIndex()
            blocker = QSignalBlocker(tabs)  # the swap is no change of tab
            tabs.insertTab(index, composer, tabs.tabText(index))
            tabs.removeTab(index + 1)
            tabs.setCurrentIndex(current)
            blocker.unblock()
            self._chat_placeholder.deleteLater()
            self._chat_placeholder = composer
            self._composer = composer
            self._size_input_pages()
        return self._composer

    def _is_chat_page(self, page: QWidget | None) -> bool:
        """Whether ``page`` is the Chat tab's page (the composer, or its place before it is built)."""
        return page is not None and page is self._chat_placeholder

    def _build_layers(self) -> QWidget:
        """The byte layers under a wrapping title, with the details column beside them."""
        layers_box = QWidget()
        lb = QVBoxLayout(layers_box)
        lb.setContentsMargins(0, 0, 0, 0)
        self.layers_title = QLabel()
        self.layers_title.setFont(fonts.ui_font(10.5))
        # wraps: one long unwrapped line would set the whole window's minimum width (wider than a
        # 1280 screen at normal size, than a 1920 projector in presentation mode)
        self.layers_title.setWordWrap(True)
        self.layers_view = ByteLayersView()
        self.layers_scroll = QScrollArea()
        self.layers_scroll.setWidget(self.layers_view)
        self.layers_scroll.setWidgetResizable(False)
        self.layers_scroll.setFrameShape(QFrame.Shape.NoFrame)
        lb.addWidget(self.layers_title)
        row = QHBoxLayout()
        row.addWidget(self.layers_scroll, 1)
        # the hover text, kept on screen for the selection: tooltips do not show on a projector
        self.details = DetailsBox()
        self.details.setFont(fonts.mono_font(10.5))
        self.details.setFixedWidth(340)
        rule = QFrame()
        rule.setFrameShape(QFrame.Shape.VLine)
        rule.setFrameShadow(QFrame.Shadow.Plain)
        rule.setForegroundRole(QPalette.ColorRole.Mid)
        row.addWidget(rule)
        # the column beside the layers: the details, and on a short screen the counts too (see _fit_layers)
        self._side = QVBoxLayout()
        self._side.setContentsMargins(0, 0, 0, 0)
        self._side.addWidget(self.details, 1)
        row.addLayout(self._side)
        lb.addLayout(row, 1)
        return layers_box
