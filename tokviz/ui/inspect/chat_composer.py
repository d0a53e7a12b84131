"""A small chat composer: system / user / assistant messages rendered through a chat template.

:func:`render_chat` (plain Python) turns messages into the exact text a chat model is fed, and
remembers where each message and its content sit in that text, so the Inspector can count the
tokens every message costs, template markers included.

>>> text, spans = render_chat([("system", "Be brief."), ("user", "안녕?")], "chatml", generation_prompt=False)
>>> text
'<|im_start|>system\\nBe brief.<|im_end|>\\n<|im_start|>user\\n안녕?<|im_end|>\\n'
>>> [(s.role, text[s.content_start:s.content_end]) for s in spans]
[('system', 'Be brief.'), ('user', '안녕?')]
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Sequence

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import (
    QCheckBox, QComboBox, QHBoxLayout, QHeaderView, QLabel, QPlainTextEdit, QPushButton, QScrollArea,
    QTableWidget, QTableWidgetItem, QToolButton, QVBoxLayout, QWidget,
)

from tokviz.core.encoding import Encoding

ROLES = ("system", "user", "assistant")


@dataclass(frozen=True)
class ChatTemplate:
    name: str
    begin: str  # once, before the first message
    header: str  # before each message's content; {role} is replaced
    footer: str  # after each message's content
    markers: tuple[str, ...]  # the special-token strings the template uses


TEMPLATES = {
    "chatml": ChatTemplate("ChatML", "", "<|im_start|>{role}\n", "<|im_end|>\n", ("<|im_start|>", "<|im_end|>")),
    "llama3": ChatTemplate(
        "Llama 3", "<|begin_of_text|>", "<|start_header_id|>{role}<|end_header_id|>\n\n", "<|eot_id|>",
        ("<|begin_of_text|>", "<|start_header_id|>", "<|end_header_id|>", "<|eot_id|>"),
    ),
}


@dataclass(frozen=True)
class MessageSpan:
    """Where one rendered message sits: ``[start, end)`` incl. template markers, and its content."""

    role: str
    start: int
    end: int
    content_start: int
    content_end: int


def render_chat(messages: Sequence[tuple[str, str]], template: str = "chatml", *,
                generation_prompt: bool = True) -> tuple[str, list[MessageSpan]]:
    """The template's text for ``messages`` (role, content) and one span per message.

    The template's opening marker (Llama 3's ``<|begin_of_text|>``) and the generation prompt
    (the header that asks the model to answer) get spans of their own, roles ``(begin)`` and
    ``(generation prompt)``, so every token of the text belongs to exactly one row.
    """
    t = TEMPLATES[template]
    parts: list[str] = []
    spans: list[MessageSpan] = []
    pos = 0
    if t.begin:
        parts.append(t.begin)
        spans.append(MessageSpan("(begin)", 0, len(t.begin), len(t.begin), len(t.begin)))
        pos = len(t.begin)
    for role, content in messages:
        header = t.header.format(role=role)
        start = pos
        c0 = start + len(header)
        c1 = c0 + len(content)
        end = c1 + len(t.footer)
        parts += [header, content, t.footer]
        spans.append(MessageSpan(role, start, end, c0, c1))
        pos = end
    if generation_prompt:
        header = t.header.format(role="assistant")
        parts.append(header)
        spans.append(MessageSpan("(generation prompt)", pos, pos + len(header), pos + len(header), pos + len(header)))
    return "".join(parts), spans


@dataclass(frozen=True)
class MessageCount:
    role: str
    tokens: int  # every token that starts in the message
    content_tokens: int  # tokens lying wholly inside the content
    template_tokens: int  # the rest: markers, role names, newlines (and tokens straddling the edge)


def count_per_message(encoding: Encoding, spans: Sequence[MessageSpan]) -> list[MessageCount]:
    """Tokens per message: a token belongs to the message its first character is in.

    >>> from tokviz.core.encoding import Encoding
    >>> text, spans = render_chat([("user", "hi")], "chatml", generation_prompt=False)
    >>> enc = Encoding.from_byte_tokens("d", text, [(1, text[:12].encode()), (2, text[12:17].encode()),
    ...                                             (3, b"hi"), (4, text[19:].encode())])
    >>> count_per_message(enc, spans)
    [MessageCount(role='user', tokens=4, content_tokens=1, template_tokens=3)]
    """
    out = []
    for s in spans:
        total = content = 0
        for t in encoding.tokens:
            if s.start <= t.start < s.end or (t.start == t.end == s.start and s.start == s.end):
                total += 1
                if s.content_start <= t.start and t.end <= s.content_end and t.end > t.start:
                    content += 1
        out.append(MessageCount(s.role, total, content, total - content))
    return out


class _MessageRow(QWidget):
    changed = Signal()
    removeRequested = Signal(object)

    def __init__(self, role: str, content: str, parent: QWidget | None = None):
        super().__init__(parent)
        lay = QHBoxLayout(self)
        lay.setContentsMargins(0, 0, 0, 0)
        self.role = QComboBox()
        self.role.addItems(ROLES)
        self.role.setCurrentText(role)
        self.content = QPlainTextEdit(content)
        self.content.setFixedHeight(56)
        self.content.setPlaceholderText(f"{role} message")
        remove = QToolButton()
        remove.setText("✕")
        remove.setToolTip(self.tr("Remove this message"))
        lay.addWidget(self.role, 0, Qt.AlignmentFlag.AlignTop)
        lay.addWidget(self.content, 1)
        lay.addWidget(remove, 0, Qt.AlignmentFlag.AlignTop)
        self.role.currentTextChanged.connect(self.changed)
        self.content.textChanged.connect(self.changed)
        remove.clicked.connect(lambda: self.removeRequested.emit(self))

    def message(self) -> tuple[str, str]:
        return self.role.currentText(), self.content.toPlainText()


class ChatComposer(QWidget):
    """Messages + template; emits the rendered text. Counts come back through :meth:`show_counts`."""

    renderedChanged = Signal(str)

    DEFAULT = (
        ("system", "You are a helpful assistant. Answer in Korean."),
        ("user", "토큰화가 뭐예요? Explain tokenization in one sentence 🙂"),
        ("assistant", "텍스트를 모델이 읽는 작은 조각(토큰)으로 나누는 거예요."),
    )

    def __init__(self, parent: QWidget | None = None):
        super().__init__(parent)
        self.spans: list[MessageSpan] = []
        self.text = ""
        lay = QVBoxLayout(self)
        top = QHBoxLayout()
        top.addWidget(QLabel(self.tr("Template")))
        self.template = QComboBox()
        for key, t in TEMPLATES.items():
            self.template.addItem(t.name, key)
        top.addWidget(self.template)
        self.generation_prompt = QCheckBox(self.tr("Generation prompt"))
        self.generation_prompt.setChecked(True)
        self.generation_prompt.setToolTip(self.tr("End with the assistant header that asks the model to answer"))
        top.addWidget(self.generation_prompt)
        top.addStretch(1)
        add = QPushButton(self.tr("+ Message"))
        add.clicked.connect(lambda: self.add_message("user", ""))
        top.addWidget(add)
        lay.addLayout(top)
        self._rows_box = QWidget()
        self._rows = QVBoxLayout(self._rows_box)
        self._rows.setContentsMargins(0, 0, 0, 0)
        self._rows.addStretch(1)
        scroll = QScrollArea()
        scroll.setWidgetResizable(True)
        scroll.setWidget(self._rows_box)
        lay.addWidget(scroll, 2)
        self.note = QLabel()
        self.note.setWordWrap(True)
        lay.addWidget(self.note)
        self.table = QTableWidget(0, 4)
        self.table.setHorizontalHeaderLabels([self.tr("Message"), self.tr("Tokens"), self.tr("Content"), self.tr("Template")])
        self.table.horizontalHeader().setSectionResizeMode(QHeaderView.ResizeMode.Stretch)
        self.table.horizontalHeader().setSectionResizeMode(0, QHeaderView.ResizeMode.ResizeToContents)
        self.table.verticalHeader().hide()
        self.table.verticalHeader().setDefaultSectionSize(self.table.fontMetrics().height() + 6)
        self.table.setMinimumHeight(6 * (self.table.fontMetrics().height() + 6) + 6)
        self.table.setEditTriggers(QTableWidget.EditTrigger.NoEditTriggers)
        lay.addWidget(self.table, 3)
        self.template.currentIndexChanged.connect(self._render)
        self.generation_prompt.toggled.connect(self._render)
        for role, content in self.DEFAULT:
            self.add_message(role, content, render=False)
        self._render()

    def add_message(self, role: str, content: str, *, render: bool = True) -> None:
        row = _MessageRow(role, content)
        row.changed.connect(self._render)
        row.removeRequested.connect(self._remove)
        self._rows.insertWidget(self._rows.count() - 1, row)
        if render:
            self._render()

    def _remove(self, row: _MessageRow) -> None:
        row.setParent(None)
        row.deleteLater()
        self._render()

    def messages(self) -> list[tuple[str, str]]:
        rows = [self._rows.itemAt(i).widget() for i in range(self._rows.count())]
        return [r.message() for r in rows if isinstance(r, _MessageRow) and r.parent() is not None]

    def set_messages(self, messages: Sequence[tuple[str, str]]) -> None:
        for i in reversed(range(self._rows.count())):
            w = self._rows.itemAt(i).widget()
            if isinstance(w, _MessageRow):
                w.setParent(None)
                w.deleteLater()
        for role, content in messages:
            self.add_message(role, content, render=False)
        self._render()

    def template_key(self) -> str:
        return self.template.currentData()

    def _render(self) -> None:
        self.text, self.spans = render_chat(self.messages(), self.template_key(),
                                            generation_prompt=self.generation_prompt.isChecked())
        self.renderedChanged.emit(self.text)

    def show_counts(self, encoding: Encoding | None, special_tokens: Sequence[str], allow_special: bool) -> list[MessageCount]:
        """Fill the table from ``encoding`` when it is the rendered text; note the template markers the
        encoder does not know as special tokens (they are then split like ordinary text)."""
        if encoding is None or encoding.text != self.text:
            self.table.setRowCount(0)
            return []
        counts = count_per_message(encoding, self.spans)
        self.table.setRowCount(len(counts) + 1)
        for r, c in enumerate(counts):
            for col, v in enumerate((c.role, c.tokens, c.content_tokens, c.template_tokens)):
                item = QTableWidgetItem(str(v))
                if col:
                    item.setTextAlignment(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
                self.table.setItem(r, col, item)
        total = [("total", sum(c.tokens for c in counts), sum(c.content_tokens for c in counts),
                  sum(c.template_tokens for c in counts))]
        for col, v in enumerate(total[0]):
            item = QTableWidgetItem(str(v))
            f = item.font()
            f.setBold(True)
            item.setFont(f)
            if col:
                item.setTextAlignment(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
            self.table.setItem(len(counts), col, item)
        markers = TEMPLATES[self.template_key()].markers
        unknown = [m for m in markers if m not in special_tokens]
        if unknown:
            self.note.setText(
                self.tr("{encoder} has no special token {markers}: here the markers are split into ordinary "
                        "tokens, so the template costs more than with the model's own vocabulary.").format(
                    encoder=encoding.encoder, markers=", ".join(unknown))
            )
        elif not allow_special:
            self.note.setText(self.tr("Special tokens are off: the markers are split as plain text. Turn on "
                                      "“Special tokens” to see each marker as one token."))
        else:
            self.note.setText(self.tr("Every template marker is one special token."))
        return counts
