"""What the Parity and Sweep tabs share: the checkable list of encoders, table cells that sort by their
number (not their text), and the save dialogs of their PNG and CSV exports."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from pathlib import Path

from PySide6.QtCore import QCoreApplication, Qt
from PySide6.QtWidgets import (
    QFileDialog,
    QListWidget,
    QListWidgetItem,
    QTableWidgetItem,
    QTabWidget,
    QVBoxLayout,
    QWidget,
)

from tokviz.core.atomic import write_atomic
from tokviz.core.errors import TokvizError
from tokviz.ui.common.encoder_names import shown_name
from tokviz.ui.common.image_export import save_widget_png

KEY_ROLE = Qt.ItemDataRole.UserRole  # an item's encoder name (the text is the name shown)
SORT_ROLE = Qt.ItemDataRole.UserRole + 1  # a cell's number


class EncoderChecklist(QListWidget):
    """Every encoder of the registry, the chosen ones checked; ``on_change(names)`` gets the checked
    names in list order whenever a check changes."""

    def __init__(self, names: Sequence[str], chosen: Sequence[str], on_change: Callable[[list[str]], None]):
        super().__init__()
        self._on_change = on_change
        self.set_names(names, chosen)
        self.itemChanged.connect(lambda _item: self._on_change(self.checked()))

    def set_names(self, names: Sequence[str], chosen: Sequence[str]) -> None:
        """List ``names`` (the chosen first, in their order), check ``chosen``; no change is reported."""
        self.blockSignals(True)
        self.clear()
        for name in [*[n for n in chosen if n in names], *[n for n in names if n not in chosen]]:
            item = QListWidgetItem(shown_name(name))
            item.setData(KEY_ROLE, name)
            item.setFlags(item.flags() | Qt.ItemFlag.ItemIsUserCheckable)
            item.setCheckState(Qt.CheckState.Checked if name in chosen else Qt.CheckState.Unchecked)
            self.addItem(item)
        self.blockSignals(False)

    def checked(self) -> list[str]:
        return [
            self.item(i).data(KEY_ROLE)
            for i in range(self.count())
            if self.item(i).checkState() == Qt.CheckState.Checked
        ]

    def set_checked(self, name: str, checked: bool) -> None:
        """Check or uncheck ``name`` as a click would (the change is reported)."""
        for i in range(self.count()):
            if self.item(i).data(KEY_ROLE) == name:
                self.item(i).setCheckState(Qt.CheckState.Checked if checked else Qt.CheckState.Unchecked)


class NumberItem(QTableWidgetItem):
    """A cell showing ``text`` that sorts by ``value`` (None sorts first)."""

    def __init__(self, text: str, value: float | None):
        super().__init__(text)
        self.setData(SORT_ROLE, value)
        self.setTextAlignment(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
        self.setFlags(self.flags() & ~Qt.ItemFlag.ItemIsEditable)

    def __lt__(self, other: QTableWidgetItem) -> bool:
        mine, theirs = self.data(SORT_ROLE), other.data(SORT_ROLE)
        if isinstance(mine, (int, float)) and isinstance(theirs, (int, float)):
            return mine < theirs
        return (mine is not None, str(mine)) < (theirs is not None, str(theirs))


def text_item(text: str) -> QTableWidgetItem:
    item = QTableWidgetItem(text)
    item.setFlags(item.flags() & ~Qt.ItemFlag.ItemIsEditable)
    return item


def write_csv(path: str | Path, text: str) -> Path:
    """CSV text to ``path`` atomically, with a BOM so spreadsheet programs read Hangul correctly."""
    return write_atomic(path, text, encoding="utf-8-sig", newline="")


def ask_and_save(parent: QWidget, kind: str, suggested: str, save: Callable[[str], Path]) -> str | None:
    """Ask where to save (``kind`` "png" or "csv"), call ``save(path)``; the message to show (None:
    the user chose no file)."""
    translate = QCoreApplication.translate
    if kind == "png":
        title = translate("MeasureExport", "Save chart as PNG")
    else:
        title = translate("MeasureExport", "Export table as CSV")
    pattern = "PNG (*.png)" if kind == "png" else "CSV (*.csv)"
    path, _ = QFileDialog.getSaveFileName(parent, title, suggested, pattern)
    if not path:
        return None
    try:
        written = save(path)
    except (OSError, TokvizError) as err:
        reason = getattr(err, "strerror", None) or err
        return translate("MeasureExport", "Could not write {path}: {err}").format(path=path, err=reason)
    return translate("MeasureExport", "Saved {path}").format(path=written)


def spin_until(done: Callable[[], bool], timeout: float) -> bool:
    """Run the event loop until ``done()`` or ``timeout`` seconds (screenshots and scripts: the GUI
    itself never waits)."""
    import time

    from PySide6.QtWidgets import QApplication

    end = time.monotonic() + timeout
    while not done() and time.monotonic() < end:
        QApplication.processEvents()
        time.sleep(0.005)
    QApplication.processEvents()
    return done()


def tab_widget_of(widget: QWidget) -> QTabWidget | None:
    """The tab widget ``widget`` is a page of (its tab title follows the language), if any."""
    parent = widget.parentWidget()
    while parent is not None and not isinstance(parent, QTabWidget):
        parent = parent.parentWidget()
    return parent


class LazyPage(QWidget):
    """A tab page whose content (a :class:`MeasureTab`) is built the first time it is asked for: when the
    user shows the tab, or a screenshot wants it. Until then the tab shows ``title()``."""

    def __init__(self, build: Callable[[], MeasureTab], title: Callable[[], str]):
        super().__init__()
        self._build = build
        self._title = title
        self._content: MeasureTab | None = None
        QVBoxLayout(self).setContentsMargins(0, 0, 0, 0)

    def content(self) -> MeasureTab:
        if self._content is None:
            self._content = self._build()
            self.layout().addWidget(self._content)
            self._content.retitle()
        return self._content

    def retitle(self) -> None:
        """After a language change: an unbuilt page's title (a built tab retitles itself)."""
        tabs = tab_widget_of(self)
        if self._content is None and tabs is not None:
            tabs.setTabText(tabs.indexOf(self), self._title())


class MeasureTab(QWidget):
    """What the Parity and Sweep tabs share: the tab's title in the interface's language, status
    messages, PNG and CSV export and ``tokviz screenshot``'s run-and-wait.

    A subclass has ``state`` (with ``csv_text()``, the CLI's columns), ``status`` (a label) and
    ``figure`` (the chart saved as PNG), and defines ``title()``, ``set_encoders()``, ``run()`` and
    ``busy()``."""

    screenshot_timeout = 120.0  # seconds a screenshot waits for the run

    def retitle(self) -> None:
        tabs = tab_widget_of(self)
        if tabs is not None:
            page = self if tabs.indexOf(self) >= 0 else self.parentWidget()  # built inside a LazyPage
            tabs.setTabText(tabs.indexOf(page), self.title())

    def _report(self, message: str | None) -> None:
        if message:
            self.status.setText(message)

    def export_csv(self, path: str | Path) -> Path:
        """The table's rows with the columns of the CLI's ``--csv``."""
        return write_csv(path, self.state.csv_text())

    def save_png(self, path: str | Path) -> Path:
        """The chart as a PNG."""
        return save_widget_png(self.figure, path)

    def prepare_screenshot(self, args) -> None:
        """Run with the encoders of ``args.encoders`` (else the defaults) and wait for the chart."""
        names = getattr(args, "encoders", None)
        if names:
            self.set_encoders(names)
        self.run()
        self.wait_until_idle()

    def wait_until_idle(self, timeout: float | None = None) -> bool:
        return spin_until(lambda: not self.busy(), self.screenshot_timeout if timeout is None else timeout)
