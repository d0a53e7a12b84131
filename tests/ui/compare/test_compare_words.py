"""The Compare stats table counts words as parity does: its tokens-per-word and continued-words
cells for Chinese and Japanese text read parity's fertility and continued share, and the CSV carries
the same numbers unrounded."""

from __future__ import annotations

import csv

import pytest

from tests.support.compare_panel import compare_session, make_panel
from tokviz.core.parity import measure_parity, read_parallel_corpus
from tokviz.ui.compare.tables import STAT_COLUMNS, number, share

LINES = {"en": "I am going to Tokyo tomorrow.", "ja": "明日東京に行きます。", "zh": "我明天去北京。"}


@pytest.fixture(scope="module")
def parity(tmp_path_factory):
    folder = tmp_path_factory.mktemp("parallel")
    for lang, line in LINES.items():
        (folder / f"{lang}.txt").write_text(line + "\n", encoding="utf-8")
    session = compare_session()
    gpt2 = session.registry.get("gpt2")
    return measure_parity([gpt2], read_parallel_corpus(folder))


def test_stats_table_shows_paritys_fertility_for_chinese_and_japanese(qtbot, parity, tmp_path):
    # whitespace words made each line one word: the table said 15.00 tokens/word for "明日東京に行きます。"
    panel = make_panel(qtbot, compare_session(), ["gpt2"], text=LINES["ja"])
    header = [panel.stats_table.horizontalHeaderItem(c).text() for c in range(panel.stats_table.columnCount())]
    fertility_col = header.index("Tokens/word")
    continued_col = header.index("Continued words")
    assert len(header) == len(STAT_COLUMNS)
    for lang in ("ja", "zh"):
        with qtbot.waitSignal(panel.rowsUpdated, timeout=20000):
            panel.set_text(LINES[lang])
            panel.refresh_now()
        stats = parity.stats[("gpt2", lang)]
        assert panel.stats_table.item(0, fertility_col).text() == number(stats.fertility)
        assert panel.stats_table.item(0, continued_col).text() == share(stats.continued_share)
        (row,) = csv.DictReader(panel.export_csv(tmp_path / f"{lang}.csv", "stats").open(encoding="utf-8-sig"))
        assert (int(row["words"]), int(row["continued_words"])) == (stats.words, stats.continued_words)
        assert row["fertility"] == f"{stats.fertility:.4f}"
    panel.shutdown()
