"""The Train panel's playback state, without Qt."""

from __future__ import annotations

import sys

from tokviz.ui.train.state import Playback


def test_state_module_imports_no_qt():
    assert "tokviz.ui.train.state" in sys.modules
    import tokviz.ui.train.state as state

    source = open(state.__file__, encoding="utf-8").read()
    assert "PySide6" not in source and "pyqtgraph" not in source


def test_pace_turns_time_into_merges_and_carries_fractions():
    p = Playback(pace=3.0)
    p.play()
    assert p.advance(0.2, recorded=100) == "playing" and p.cursor == 0  # 0.6 of a merge owed
    assert p.advance(0.2, recorded=100) == "playing" and p.cursor == 1  # 1.2: one shown, 0.2 carried
    p.advance(1.0, recorded=100)
    assert p.cursor == 4


def test_playing_stops_at_the_recording_without_a_burst_later():
    p = Playback(pace=100.0)
    p.play()
    p.advance(1.0, recorded=5)
    assert p.cursor == 5
    p.advance(10.0, recorded=5)  # the trainer is slow: time passes with nothing new recorded
    assert p.budget <= 1.0
    p.advance(0.0, recorded=50)
    assert p.cursor <= 6  # at most the one merge owed, not ten seconds' worth


def test_as_fast_as_possible_and_run_to_end_jump_to_the_last_step():
    p = Playback(pace=None)
    p.play()
    p.advance(0.01, recorded=40)
    assert p.cursor == 40
    q = Playback(pace=1.0)
    q.play(fast=True)
    q.advance(0.01, recorded=70)
    assert q.cursor == 70 and q.effective_pace() is None


def test_step_uses_the_recording_then_waits_for_the_trainer():
    p = Playback(cursor=3)
    p.play()
    assert p.step_forward(recorded=5) and p.cursor == 4 and not p.playing
    p.cursor = 5
    assert not p.step_forward(recorded=5) and p.step_target == 6 and p.cursor == 5
    assert p.advance(0.1, recorded=5) is None and p.cursor == 5  # not recorded yet
    assert p.advance(0.1, recorded=9) == "target" and p.cursor == 6 and p.step_target is None


def test_seek_clamps_and_finished_knows_when_the_animation_is_over():
    p = Playback()
    assert p.seek(50, recorded=10) == 10 and p.seek(-3, recorded=10) == 0
    p.play()
    assert not p.finished(recorded=10, running=False)
    p.seek(10, recorded=10)
    assert p.finished(recorded=10, running=False)
    assert not p.finished(recorded=10, running=True)
    p.pause()
    p.step_target = 11
    assert not p.finished(recorded=10, running=False)
    p.reset()
    assert (p.cursor, p.playing, p.step_target) == (0, False, None)


def test_play_continues_a_run_or_the_recording_else_trains_anew():
    p = Playback(cursor=10)
    assert p.can_play_on(recorded=12, running=False)
    assert p.can_play_on(recorded=10, running=True)
    assert not p.can_play_on(recorded=10, running=False)
