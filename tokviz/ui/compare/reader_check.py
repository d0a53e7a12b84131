"""The Compare panel's cross-check preset: one model's readers as rows, and whether they agree.

The selected encoder's model files (a catalogue model: Mistral's SentencePiece models, DeepSeek V4's
tokenizer.json, tekken …) are read by every library that reads them (tokenizers, sentencepiece,
mistral-common); each reading joins the list right after the model as a row of its own, and the line
under the stats says, per line of the text, whether their ids agree with the first reader's or where
they first differ. The work is :mod:`tokviz.core.crosscheck`'s, run on the panel's "crosscheck" channel.
"""

from __future__ import annotations

from PySide6.QtCore import QCoreApplication, Qt
from PySide6.QtWidgets import QHBoxLayout, QLabel, QPushButton, QWidget

from tokviz.core.crosscheck import check_readers, model_files, open_readers
from tokviz.core.display import visible_piece
from tokviz.ui.compare.encoder_list import item_key
from tokviz.ui.i18n import follow_language

translate = QCoreApplication.translate  # the translation context of these strings is ReaderCheck's

MAX_LINES_SHOWN = 3  # differing lines spelled out under the stats; the count says how many in all


class ReaderCheck:
    """The cross-check preset (mixed into ComparePanel; its strings are ReaderCheck's)."""

    def _build_reader_check(self) -> QWidget:
        box = QWidget()
        row = QHBoxLayout(box)
        row.setContentsMargins(0, 0, 0, 0)
        self.crosscheck_button = QPushButton(translate("ReaderCheck", "Cross-check readers"))
        self.crosscheck_button.setToolTip(
            translate(
                "ReaderCheck",
                "Add every library that reads the selected model's files as a row of its own, and check "
                "whether their ids agree on each line",
            )
        )
        self.crosscheck_button.clicked.connect(lambda: self.crosscheck_model())
        row.addWidget(self.crosscheck_button, 0, Qt.AlignmentFlag.AlignTop)
        self.crosscheck_label = QLabel()
        self.crosscheck_label.setWordWrap(True)
        self.crosscheck_label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        row.addWidget(self.crosscheck_label, 1)
        # its own strings follow the language by themselves; the verdict is composed again
        follow_language(box, ("ReaderCheck",), then=self._render_crosscheck)
        return box

    def crosscheck_model(self, model: str | None = None) -> bool:
        """Cross-check ``model`` (default: the encoder selected in the list, else the first listed);
        False, with a message, when there is none."""
        if model is None:
            item = self.encoder_list.currentItem()
            model = item_key(item) if item is not None else next(iter(self.state.encoders), None)
        if self.state.start_crosscheck(model) is not None:
            self.show_message(
                translate("ReaderCheck", "Select an encoder in the list to cross-check its model."), "warning"
            )
            return False
        registry = self.session.registry
        opened = self.state.opened.get(model)  # a model file or folder opened here; else a catalogue model
        self._reader_tasks.start(
            lambda _state: open_readers(model, registry.get(model), None if opened is None else model_files(opened)),
            finished=lambda readers: self._readers_opened(model, readers),
            failed=lambda message: self.state.crosscheck_failed(model, message),
        )
        return True

    def _readers_opened(self, model: str, readers) -> None:
        for reader in readers:  # encoders for every panel, as an opened model file is
            self.session.add_encoder(reader)
        if self.state.crosscheck_ready(model, [r.name for r in readers]):
            self._encoders_edited()  # -> the rows, then the verdict (_check_readers)

    def _check_readers(self) -> None:
        """Check the current text with the model's readers when the verdict shown is for another one."""
        if not self.state.crosscheck_wanted():
            return
        check, text, registry = self.state.crosscheck, self.state.text, self.session.registry
        model, names = check.model, check.readers
        self.state.crosscheck_checking()
        self._reader_tasks.start(
            lambda _state: check_readers(model, registry.get(model), [registry.get(n) for n in names], text),
            finished=lambda report: self.state.crosscheck_result(model, text, report),
            failed=lambda message: self.state.crosscheck_failed(model, message, text),
        )

    def _render_crosscheck(self) -> None:
        check = self.state.crosscheck
        if check is None:
            self.crosscheck_label.clear()  # shown empty: the button keeps its size
            return
        if check.pending:
            self.tabs.setCurrentIndex(0)  # the verdict shows under the stats
            text = translate("ReaderCheck", "Cross-check of {model}: reading the text with each reader…").format(
                model=check.model
            )
        elif isinstance(check.verdict, str):
            text = translate("ReaderCheck", "Cross-check of {model}: {problem}").format(
                model=check.model, problem=check.verdict
            )
        else:
            text = self._verdict_text(check.model, check.verdict)
        self.crosscheck_label.setText(text)

    def _verdict_text(self, model: str, report) -> str:
        readers = len(report.implementations)
        if report.agree:
            return translate(
                "ReaderCheck", "Cross-check of {model}: all {readers} readers agree on every line ({lines})."
            ).format(model=model, readers=readers, lines=report.lines)
        lines = sorted({d.line for d in report.differences})
        out = [
            translate("ReaderCheck", "Cross-check of {model}: the readers differ on {differ} of {lines} lines.").format(
                model=model, differ=len(lines), lines=report.lines
            )
        ]
        for d in report.differences[:MAX_LINES_SHOWN]:
            ref_tok, got_tok = (visible_piece(t) if t is not None else "–" for t in d.tokens)
            out.append(
                translate(
                    "ReaderCheck",
                    "line {line}, token {index}: {reader} gives {got} {got_token}, "
                    "{reference} gives {want} {want_token}",
                ).format(
                    line=d.line,
                    index=d.index,
                    reader=d.implementation,
                    got=d.ids[1],
                    got_token=repr(got_tok),
                    reference=d.reference,
                    want=d.ids[0],
                    want_token=repr(ref_tok),
                )
            )
        return "\n".join(out)
