"""The chat composer: messages rendered the way the selected model sees them, and what each costs.

The prompt is built by :func:`tokviz.core.chat.build_prompt` (the same function as ``tokviz chat``),
so the Inspector shows exactly the CLI's ids: the model's own Jinja ``chat_template`` or the
built-in its special tokens call for (:func:`~tokviz.core.chat.default_template`), or a template the
user picks (a built-in, or a Jinja file). Special tokens are single tokens, each message's tokens
are counted and the rest is the template's overhead.

The composer is a widget plus a :class:`ChatRequest`: the Inspector sends the request with its
encode request, the worker thread builds the prompt (:meth:`ChatRequest.build`), and the result
comes back through :meth:`ChatComposer.show_result`. A template that fails or runs away is stopped
by core.chat and shown here as a message. A Jinja template renders in core's template process; a newer
request (the user typed on, changed the template) or the window closing stops a render in flight by
killing that process (the worker passes its staleness check as ``cancelled``).

>>> from tokviz.core.chat import Message
>>> ChatRequest((Message("user", "안녕"),), "chatml").template_label()
'ChatML (Qwen)'
"""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

from PySide6.QtCore import QCoreApplication, Qt, Signal
from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QFileDialog,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QPushButton,
    QScrollArea,
    QTableWidget,
    QTableWidgetItem,
    QToolButton,
    QVBoxLayout,
    QWidget,
)

from tokviz.core import template_process
from tokviz.core.chat import (
    BUILTIN_TEMPLATES,
    ChatPrompt,
    ChatTemplateError,
    Message,
    build_prompt,
    default_template,
    unknown_markers,
)
from tokviz.core.errors import TokvizError
from tokviz.ui.common.exact_text_edit import ExactTextEdit
from tokviz.ui.i18n import in_language

ROLES = ("system", "user", "assistant", "tool")
TEMPLATE_FILE_LIMIT = 1024 * 1024  # a chat template is a few kilobytes; a megabyte is not one


def _tr(text: str) -> str:
    return QCoreApplication.translate("ChatComposer", text)


def role_label(role: str) -> str:
    """A role as the interface shows it (the template gets the English role)."""
    labels = {
        "system": _tr("system"), "user": _tr("user"), "assistant": _tr("assistant"), "tool": _tr("tool"),
    }
    return labels.get(role, role)


def builtin_label(name: str) -> str:
    labels = {
        "llama3": _tr("Llama 3 (Meta's chat format)"),
        "mistral-v1": _tr("Mistral v1 (mistral-common)"),
        "mistral-v3": _tr("Mistral v3 / Tekken (mistral-common)"),
        "mistral-v7": _tr("Mistral v7 (mistral-common)"),
        "chatml": _tr("ChatML (Qwen)"),
        "gemma": _tr("Gemma"),
    }
    return labels.get(name, name)


@dataclass(frozen=True)
class ChatOutcome:
    """The prompt built for the Inspector: the ChatPrompt, which template made it, what the generation
    prompt cost and the template markers the encoder lacks as special tokens."""

    prompt: ChatPrompt
    template: str  # built-in name, "own" (the model's chat_template) or "file"
    generation_tokens: int | None  # tokens the generation prompt adds (None when off or unknown)
    unknown_markers: tuple[str, ...] = ()


@dataclass(frozen=True)
class ChatRequest:
    """What the composer asks for: the messages, the template and the generation-prompt switch.

    ``template`` is None for the model's own (or the built-in its special tokens call for), a built-in
    name, or Jinja source (``file_name`` says where it came from). Plain data: it goes to the worker.
    """

    messages: tuple[Message, ...]
    template: str | None = None
    add_generation_prompt: bool = True
    file_name: str | None = None

    def template_label(self, chosen: str | None = None) -> str:
        if self.file_name is not None:
            return self.file_name
        name = chosen if chosen is not None else self.template
        if name is None:
            return _tr("the model's own")
        if name == "own":
            return _tr("the model's own chat_template")
        return builtin_label(name)

    def resolve(self, encoder) -> tuple[str, str]:
        """(template source or built-in name, its kind: a built-in name, "own" or "file")."""
        if self.template is not None:
            return self.template, ("file" if self.file_name is not None else self.template)
        try:
            chosen = default_template(encoder)
        except ChatTemplateError:
            # core's message names the CLI's --template; here the choice is the Template box
            raise ChatTemplateError(_tr(
                "{encoder} has no chat template of its own and none of the built-in ones fits its special "
                "tokens: choose a template above (a built-in, or a Jinja file such as the model's "
                "chat_template.jinja).").format(encoder=getattr(encoder, "name", "?"))) from None
        return chosen, (chosen if chosen in BUILTIN_TEMPLATES else "own")

    def build(self, encoder, cancelled: Callable[[], bool] | None = None) -> ChatOutcome:
        """Build and encode the prompt with ``encoder`` (any thread). Raises ChatTemplateError, also when
        ``cancelled()`` turns true while a Jinja template renders (its process is stopped)."""
        template, kind = self.resolve(encoder)
        prompt = build_prompt(encoder, self.messages, template, add_generation_prompt=self.add_generation_prompt,
                              cancelled=cancelled)
        generation = None
        if self.add_generation_prompt:
            try:
                without = build_prompt(encoder, self.messages, template, add_generation_prompt=False,
                                       cancelled=cancelled)
                generation = len(prompt.encoding) - len(without.encoding)
            except TokvizError:
                generation = None  # a template that needs the generation prompt: its cost stays in the overhead
        return ChatOutcome(prompt, kind, generation, tuple(unknown_markers(prompt.text, encoder)))


class _MessageRow(QWidget):
    changed = Signal()
    removeRequested = Signal(object)

    def __init__(self, role: str, content: str, parent: QWidget | None = None):
        super().__init__(parent)
        lay = QHBoxLayout(self)
        lay.setContentsMargins(0, 0, 0, 0)
        self.role = QComboBox()
        for r in ROLES:
            self.role.addItem(role_label(r), r)
        if role not in ROLES:
            self.role.addItem(role, role)
        self.role.setCurrentIndex(self.role.findData(role))
        self.content = ExactTextEdit()  # a pasted CRLF or NBSP reaches the template as pasted
        self.content.set_exact_text(content)
        self.content.setFixedHeight(56)
        remove = QToolButton()
        remove.setText("✕")
        remove.setToolTip(self.tr("Remove this message"))
        lay.addWidget(self.role, 0, Qt.AlignmentFlag.AlignTop)
        lay.addWidget(self.content, 1)
        lay.addWidget(remove, 0, Qt.AlignmentFlag.AlignTop)
        self._placeholder()
        self.role.currentIndexChanged.connect(self._placeholder)
        self.role.currentIndexChanged.connect(self.changed)
        self.content.textChanged.connect(self.changed)
        remove.clicked.connect(lambda: self.removeRequested.emit(self))

    def _placeholder(self, *_args) -> None:
        texts = {
            "system": self.tr("System message: how the assistant should behave"),
            "user": self.tr("User message"),
            "assistant": self.tr("Assistant message: an earlier answer"),
            "tool": self.tr("Tool message: a tool's output"),
        }
        self.content.setPlaceholderText(texts.get(self.role.currentData(), ""))

    def message(self) -> Message:
        return Message(self.role.currentData(), self.content.exact_text())


class ChatComposer(QWidget):
    """Messages + template. ``renderedChanged`` asks the panel to encode again; the prompt is built
    in the panel's worker from :meth:`request`, and :meth:`show_result` shows the counts."""

    renderedChanged = Signal(str)

    DEFAULT = (
        ("system", "You are a helpful assistant. Answer in Korean."),
        ("user", "토큰화가 뭐예요? Explain tokenization in one sentence 🙂"),
        ("assistant", "텍스트를 모델이 읽는 작은 조각(토큰)으로 나누는 거예요."),
        ("user", "그럼 한국어는 토큰이 더 많이 드나요?"),
    )

    def __init__(self, parent: QWidget | None = None):
        super().__init__(parent)
        self.text = ""  # the prompt the last result rendered
        self.outcome: ChatOutcome | None = None
        self.error: str | None = None
        self._file_template: tuple[str, str] | None = None  # (file name, Jinja source)
        lay = QVBoxLayout(self)
        top = QHBoxLayout()
        top.addWidget(QLabel(self.tr("Template")))
        self.template = QComboBox()
        self.template.addItem(self.tr("Model's own (or the built-in its special tokens call for)"), None)
        for name in BUILTIN_TEMPLATES:
            self.template.addItem(builtin_label(name), name)
        self.template.addItem(self.tr("Jinja file…"), "file")
        self.template.setToolTip(self.tr("How the messages become one prompt. The model's own template comes "
                                         "from its tokenizer_config.json or chat_template.jinja."))
        # long template names must not widen the editor's side of the splitter
        self.template.setSizeAdjustPolicy(QComboBox.SizeAdjustPolicy.AdjustToMinimumContentsLengthWithIcon)
        self.template.setMinimumContentsLength(10)
        top.addWidget(self.template, 1)
        lay.addLayout(top)
        # a row of its own: beside the template they cut its name ("모델 자체 템플릿 (없으면…") at 1280 px
        options = QHBoxLayout()
        self.generation_prompt = QCheckBox(self.tr("Generation prompt"))
        self.generation_prompt.setChecked(True)
        self.generation_prompt.setToolTip(self.tr("End with the assistant header that asks the model to answer"))
        options.addWidget(self.generation_prompt)
        options.addStretch(1)
        add = QPushButton(self.tr("+ Message"))
        add.clicked.connect(lambda: self.add_message("user", ""))
        options.addWidget(add)
        lay.addLayout(options)
        self._rows_box = QWidget()
        self._rows = QVBoxLayout(self._rows_box)
        self._rows.setContentsMargins(0, 0, 0, 0)
        self._rows.addStretch(1)
        scroll = QScrollArea()
        scroll.setWidgetResizable(True)
        scroll.setWidget(self._rows_box)
        lay.addWidget(scroll, 3)  # more of the room than the counts: two messages stay visible at 900 px
        self.note = QLabel()
        self.note.setWordWrap(True)
        self.note.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        lay.addWidget(self.note)
        self.table = QTableWidget(0, 2)
        self.table.setHorizontalHeaderLabels([self.tr("Message"), self.tr("Tokens")])
        self.table.horizontalHeader().setSectionResizeMode(0, QHeaderView.ResizeMode.Stretch)
        self.table.horizontalHeader().setSectionResizeMode(1, QHeaderView.ResizeMode.ResizeToContents)
        self.table.verticalHeader().hide()
        self.table.verticalHeader().setDefaultSectionSize(self.table.fontMetrics().height() + 6)
        self.table.setMinimumHeight(4 * (self.table.fontMetrics().height() + 6) + 6)
        self.table.setEditTriggers(QTableWidget.EditTrigger.NoEditTriggers)
        lay.addWidget(self.table, 2)
        self.template.activated.connect(self._template_chosen)
        self.generation_prompt.toggled.connect(self._changed)
        for role, content in self.DEFAULT:
            self.add_message(role, content, render=False)
        self._last_template_index = 0

    def showEvent(self, event) -> None:  # noqa: N802 - Qt's name
        # the template process imports jinja2 (0.1-0.3 s) while the user looks at the messages, not in
        # the first render
        template_process.prepare()
        super().showEvent(event)

    # ---- messages -----------------------------------------------------------------------------------
    def add_message(self, role: str, content: str, *, render: bool = True) -> None:
        row = _MessageRow(role, content)
        row.changed.connect(self._changed)
        row.removeRequested.connect(self._remove)
        self._rows.insertWidget(self._rows.count() - 1, row)
        if render:
            self._changed()

    def _remove(self, row: _MessageRow) -> None:
        row.setParent(None)
        row.deleteLater()
        self._changed()

    def message_rows(self) -> list[_MessageRow]:
        """The message rows as shown, top to bottom (each with its ``role`` combo and ``content`` editor)."""
        rows = [self._rows.itemAt(i).widget() for i in range(self._rows.count())]
        return [r for r in rows if isinstance(r, _MessageRow) and r.parent() is not None]

    def messages(self) -> list[Message]:
        return [r.message() for r in self.message_rows()]

    def set_messages(self, messages: Sequence[tuple[str, str] | Message]) -> None:
        for row in self.message_rows():
            row.setParent(None)
            row.deleteLater()
        for m in messages:
            role, content = (m.role, m.content) if isinstance(m, Message) else m
            self.add_message(role, content, render=False)
        self._changed()

    # ---- template -----------------------------------------------------------------------------------
    def set_template(self, name: str | None) -> None:
        """Choose a built-in by name, or None for the model's own."""
        index = self.template.findData(name)
        if index < 0:
            raise ValueError(f"no such template: {name!r}")
        self.template.setCurrentIndex(index)
        self._last_template_index = index
        self._changed()

    def _template_chosen(self, index: int) -> None:
        if self.template.itemData(index) == "file":
            path, _ = QFileDialog.getOpenFileName(
                self, self.tr("Open a chat template"), "",
                self.tr("Chat templates (*.jinja *.j2 *.txt tokenizer_config.json *.json);;All files (*)"))
            if not path or not self.load_template_file(path):
                self.template.setCurrentIndex(self._last_template_index)
            return
        self._last_template_index = index
        self._changed()

    def load_template_file(self, path: str | Path) -> bool:
        """Use the Jinja template in ``path`` (a .jinja file, or a tokenizer_config.json's
        ``chat_template``); a file that is not one is a message in the composer, nothing changes."""
        p = Path(path)
        try:
            source = read_template_file(p)
        except TokvizError as err:
            self._show_problem(str(err))
            return False
        self._file_template = (p.name, source)
        label = self.tr("File: {name}").format(name=p.name)
        index = self.template.findData("loaded")
        if index < 0:
            self.template.addItem(label, "loaded")
            index = self.template.count() - 1
        else:
            self.template.setItemText(index, label)
        self.template.setCurrentIndex(index)
        self._last_template_index = index
        self._changed()
        return True

    def request(self) -> ChatRequest:
        """What the worker builds: messages, template and the generation-prompt switch."""
        data = self.template.currentData()
        gen = self.generation_prompt.isChecked()
        if data == "loaded" and self._file_template is not None:
            name, source = self._file_template
            return ChatRequest(tuple(self.messages()), source, gen, file_name=name)
        return ChatRequest(tuple(self.messages()), data if data in BUILTIN_TEMPLATES else None, gen)

    def _changed(self, *_args) -> None:
        self.renderedChanged.emit(self.text)

    # ---- results ------------------------------------------------------------------------------------
    def _show_problem(self, message: str) -> None:
        self.error = message
        self.note.setStyleSheet("color: #b21f1f;")
        self.note.setText(in_language(message))

    def show_result(self, result) -> None:
        """Show the counts of an Inspector result built from :meth:`request` (its ``chat``), or the
        message of a template that failed."""
        error = getattr(result, "error", None)
        outcome = getattr(result, "chat", None)
        if error is not None:
            self.outcome = None
            self.table.setRowCount(0)
            self._show_problem(error)
            return
        if outcome is None:
            return
        self.error = None
        self.note.setStyleSheet("")
        self.outcome = outcome
        prompt = outcome.prompt
        self.text = prompt.text
        request = result.request.chat
        rows: list[tuple[str, int, bool]] = []
        for m, n in zip(prompt.messages, prompt.message_tokens, strict=True):
            preview = " ".join(m.content.split())
            preview = preview if len(preview) <= 40 else preview[:39] + "…"
            rows.append((f"{role_label(m.role)}: {preview}" if preview else role_label(m.role), n, False))
        template_cost = prompt.overhead - (outcome.generation_tokens or 0)
        rows.append((self.tr("(template: special tokens, role names, separators)"), template_cost, False))
        if outcome.generation_tokens is not None:
            rows.append((self.tr("(generation prompt)"), outcome.generation_tokens, False))
        rows.append((self.tr("total"), len(prompt.encoding), True))
        self.table.setRowCount(len(rows))
        for r, (label, count, bold) in enumerate(rows):
            for col, value in enumerate((label, f"{count:,}")):
                item = QTableWidgetItem(value)
                if col:
                    item.setTextAlignment(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
                if bold:
                    f = item.font()
                    f.setBold(True)
                    item.setFont(f)
                self.table.setItem(r, col, item)
        used = request.template_label(outcome.template) if request is not None else outcome.template
        note = self.tr("Rendered with {template}: {total} tokens, {overhead} of them added by the template.").format(
            template=used, total=f"{len(prompt.encoding):,}", overhead=f"{prompt.overhead:,}")
        if outcome.unknown_markers:
            note += " " + self.tr(
                "{encoder} has no special token {markers}: here the markers are split into ordinary "
                "tokens, so the template costs more than with the model's own vocabulary.").format(
                encoder=prompt.encoding.encoder, markers=", ".join(outcome.unknown_markers))
        else:
            note += " " + self.tr("Every template marker is one special token.")
        self.note.setText(note)

    def counts(self) -> list[tuple[str, str]]:
        """The table's rows as (label, count) text (tests, scripts)."""
        return [(self.table.item(r, 0).text(), self.table.item(r, 1).text()) for r in range(self.table.rowCount())]


def read_template_file(path: Path) -> str:
    """The Jinja source in ``path``: the file itself, or a tokenizer_config.json's ``chat_template``
    (a string, or a list of named templates whose ``default`` is taken). Raises ChatTemplateError."""
    if not path.is_file():
        raise ChatTemplateError(f"{path.name} is not a regular file; choose a chat template file")
    if path.stat().st_size > TEMPLATE_FILE_LIMIT:
        raise ChatTemplateError(f"{path.name} is over 1 MB; that is not a chat template")
    try:
        text = path.read_text(encoding="utf-8")
    except UnicodeDecodeError as err:
        raise ChatTemplateError(f"{path.name} is not UTF-8 text (byte {err.start:,})") from None
    except OSError as err:
        raise ChatTemplateError(f"cannot read {path.name}: {err.strerror or err}") from None
    if path.suffix != ".json":
        return text
    try:
        data = json.loads(text)
    except (json.JSONDecodeError, RecursionError):
        raise ChatTemplateError(f"{path.name} is not valid JSON") from None
    found = data.get("chat_template") if isinstance(data, dict) else None
    if isinstance(found, list):
        named = {t.get("name"): t.get("template") for t in found if isinstance(t, dict)}
        found = named.get("default") or next(iter(named.values()), None)
    if not isinstance(found, str) or not found:
        raise ChatTemplateError(f"{path.name} has no chat_template")
    return found
