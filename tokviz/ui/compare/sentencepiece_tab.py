"""The Compare panel's SentencePiece tab: train a SentencePiece model on the Corpus tab's texts (in the
background; it joins the encoders) and show a unigram model's n-best and sampled segmentations."""

from __future__ import annotations

import html
import time
from pathlib import Path

from PySide6.QtCore import QCoreApplication
from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QDoubleSpinBox,
    QFormLayout,
    QHBoxLayout,
    QLabel,
    QPushButton,
    QSpinBox,
    QTextBrowser,
    QVBoxLayout,
    QWidget,
)

from tokviz.core.compare import TextSet, alternative_segmentations
from tokviz.core.errors import TokvizError
from tokviz.ui.compare.rows import error_color
from tokviz.ui.fonts import mono_font
from tokviz.ui.token_colors import text_color_on, token_color

translate = QCoreApplication.translate  # the panel's translation context, named in each call


class SentencePieceTab:
    """The SentencePiece tab (mixed into ComparePanel; the strings are ComparePanel's)."""

    def _build_sentencepiece(self) -> QWidget:
        w = QWidget()
        lay = QHBoxLayout(w)
        form_box = QWidget()
        form = QFormLayout(form_box)
        self.sp_type = QComboBox()
        self.sp_type.addItems(["unigram", "bpe"])
        self.sp_vocab = QSpinBox()
        self.sp_vocab.setRange(260, 200_000)
        self.sp_vocab.setValue(2000)
        self.sp_coverage = QDoubleSpinBox()
        self.sp_coverage.setDecimals(4)
        self.sp_coverage.setRange(0.9, 1.0)
        self.sp_coverage.setSingleStep(0.0005)
        self.sp_coverage.setValue(0.9995)
        self.sp_fallback = QCheckBox(translate("ComparePanel", "byte fallback (<0xNN> pieces instead of <unk>)"))
        self.sp_fallback.setChecked(True)
        form.addRow(translate("ComparePanel", "Model type"), self.sp_type)
        form.addRow(translate("ComparePanel", "Vocabulary size"), self.sp_vocab)
        form.addRow(translate("ComparePanel", "Character coverage"), self.sp_coverage)
        form.addRow("", self.sp_fallback)
        self.sp_train_button = QPushButton(translate("ComparePanel", "Train on the corpus (Corpus tab's texts)"))
        self.sp_train_button.clicked.connect(lambda: self.train_sentencepiece())
        form.addRow(self.sp_train_button)
        self.sp_status = QLabel(translate("ComparePanel", "The model is added as an encoder when training ends."))
        self.sp_status.setWordWrap(True)
        form.addRow(self.sp_status)
        lay.addWidget(form_box)
        right = QVBoxLayout()
        bar = QHBoxLayout()
        bar.addWidget(QLabel(translate("ComparePanel", "Unigram model:")))
        self.seg_model = QComboBox()
        bar.addWidget(self.seg_model, 1)
        self.seg_alpha = QDoubleSpinBox()
        self.seg_alpha.setRange(0.01, 1.0)
        self.seg_alpha.setSingleStep(0.05)
        self.seg_alpha.setValue(0.1)
        self.seg_alpha.setPrefix("alpha ")
        bar.addWidget(self.seg_alpha)
        seg_go = QPushButton(translate("ComparePanel", "Show segmentations"))
        seg_go.clicked.connect(lambda: self.show_segmentations())
        bar.addWidget(seg_go)
        right.addLayout(bar)
        self.seg_view = QTextBrowser()
        self.seg_view.setFont(mono_font(11))
        self.seg_view.setPlaceholderText(
            translate(
                "ComparePanel",
                "N-best and sampled segmentations of the first line of the text by a SentencePiece unigram model.",
            )
        )
        right.addWidget(self.seg_view, 1)
        holder = QWidget()
        holder.setLayout(right)
        lay.addWidget(holder, 1)
        return w

    def train_sentencepiece(self, sets: list[TextSet] | None = None) -> None:
        """Train a SentencePiece model on the corpus (the Corpus tab's texts) in the background and
        add it as an encoder."""
        from tokviz.core.encoders.sentencepiece_train import SentencePieceConfig, train_sentencepiece

        config = SentencePieceConfig(
            self.sp_type.currentText(), self.sp_vocab.value(), self.sp_coverage.value(), self.sp_fallback.isChecked()
        )
        try:
            config.check()
        except TokvizError as err:
            self.sp_status.setText(str(err))
            return
        load = (lambda: sets) if sets is not None else self._corpus_sets_loader()
        if sets is not None:
            source = "texts"
        elif self.corpus_source.currentIndex() == 3 and self.state.corpus_path:
            source = Path(self.state.corpus_path).name
        else:
            source = self.corpus_source.currentText()
        stamp = time.strftime("%H%M%S")
        display = f"sp:{config.model_type}-{config.vocab_size} ({source})"

        def work(state):
            lines = [ln for s in load() for t in s.texts for ln in t.splitlines()]
            return train_sentencepiece(
                lines, config, name=f"{config.model_type}-{config.vocab_size}-{stamp}", display_name=display
            )

        def done(encoder):
            self.sp_train_button.setEnabled(True)
            self.sp_status.setText(
                translate("ComparePanel", "Trained {name}: {n} pieces ({config}).").format(
                    name=encoder.name, n=f"{encoder.vocab_size:,}", config=config.describe()
                )
            )
            self.session.add_encoder(encoder)
            self.add_encoder_name(encoder.name)
            self.seg_model.setCurrentText(encoder.name)
            self.trainingFinished.emit(encoder)

        def failed(msg):
            self.sp_train_button.setEnabled(True)
            self.sp_status.setText(translate("ComparePanel", "Training failed: {err}").format(err=msg))
            self.trainingFinished.emit(msg)

        self.sp_train_button.setEnabled(False)
        self.sp_status.setText(translate("ComparePanel", "Training {config}…").format(config=config.describe()))
        self._sp_tasks.start(work, finished=done, failed=failed)

    def show_segmentations(self, name: str | None = None, text: str | None = None) -> bool:
        """Fill the segmentation view for ``name`` (default: the chosen model) and ``text`` (default:
        the first line of the text, up to 120 characters)."""
        name = name or self.seg_model.currentText()
        if text is None:
            lines = self.editor.toPlainText().strip().splitlines()
            text = lines[0][:120] if lines else ""
        try:
            encoder = self.session.registry.get(name)
            seg = alternative_segmentations(encoder, text, alpha=self.seg_alpha.value())
        except TokvizError as err:
            color = error_color(self.seg_view.palette()).name()
            self.seg_view.setHtml(f"<p style='color:{color}'>{html.escape(str(err))}</p>")
            return False
        pieces_id = getattr(encoder, "processor", None)

        def row(pieces) -> str:
            out = []
            for p in pieces:
                pid = pieces_id.piece_to_id(p) if pieces_id is not None else hash(p) & 0xFFFF
                bg = token_color(pid)
                fg = text_color_on(bg)
                out.append(
                    f"<span style='background:{bg.name()};color:{fg.name()}'>&nbsp;{html.escape(p)}&nbsp;</span>"
                )
            return "&thinsp;".join(out) + f" <span style='color:gray'>({len(pieces)})</span>"

        parts = [
            "<p>"
            + translate("ComparePanel", "<b>{encoder}</b> on {text}").format(
                encoder=html.escape(seg.encoder), text=html.escape(repr(seg.text))
            )
            + "</p>",
            "<p>" + translate("ComparePanel", "<b>N-best</b> (most likely first)") + "</p>",
        ]
        parts += [f"<p>{i + 1}. {row(p)}</p>" for i, p in enumerate(seg.nbest)]
        parts.append(
            "<p>"
            + translate("ComparePanel", "<b>Sampled</b> (alpha {alpha}, seeded)").format(alpha=f"{seg.alpha:g}")
            + "</p>"
        )
        parts += [f"<p>{row(p)}</p>" for p in seg.samples]
        self.seg_view.setHtml("".join(parts))
        return True
