"""`tokviz screenshot --view vocab`: its own option is refused, before any window, for another view."""

from __future__ import annotations

from tokviz.cli import main


def test_vocab_tab_is_refused_for_other_views(tmp_path, capsys):
    out = tmp_path / "x.png"
    assert main(["screenshot", "--view", "inspect", "--vocab-tab", "diff", "-o", str(out)]) == 2
    assert "--vocab-tab is for the vocab view" in capsys.readouterr().err
    assert not out.exists()
