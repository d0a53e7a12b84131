"""The Train panel's lecture facts without a window: StepFollower with work channels the test answers."""

from __future__ import annotations

from types import SimpleNamespace

from tokviz.core.bpe.events import TrainerConfig
from tokviz.ui.train.corpus import CorpusSource
from tokviz.ui.train.follow import FOLLOW_PACE, StepFacts, StepFollower
from tokviz.ui.train.state import Playback


class Channel:
    """A latest-wins channel whose jobs the test finishes by hand (nothing runs)."""

    def __init__(self) -> None:
        self.jobs: list = []  # the ``finished`` callbacks of the jobs started, oldest first
        self.closed = False

    def start(self, fn, *, finished) -> None:
        self.jobs.append(finished)

    def close(self) -> None:
        self.closed = True


CONFIG = TrainerConfig(mode="byte", merges=10, min_frequency=2)
SOURCE = CorpusSource.paste("low lower lowest\nnewer wider\n")
FACTS = SimpleNamespace(guesser="the corpus's guesser")  # what a reading hands back, as far as the follower cares


class Replay:
    """Five recorded merges (the follower only counts and slices them)."""

    steps = [SimpleNamespace(step=k) for k in range(1, 6)]

    def __len__(self) -> int:
        return len(self.steps)


REPLAY = Replay()


def _follower(playback=None):
    events: list = []
    corpus, steps = Channel(), Channel()
    follower = StepFollower(
        playback or Playback(),
        corpus,
        steps,
        facts_read=lambda facts: events.append(("facts", facts)),
        step_computed=lambda step: events.append(("step", step)),
    )
    return follower, corpus, steps, events


def test_a_run_takes_the_facts_read_while_the_app_idled_without_reading_again():
    follower, corpus, _steps, events = _follower()
    follower.prefetch(CONFIG, SOURCE, False)
    follower.prefetch(CONFIG, SOURCE, False)  # the same settings: the reading under way is enough
    assert len(corpus.jobs) == 1
    corpus.jobs[0](FACTS)
    assert events == [] and follower.facts is None  # read ahead, no run to show them yet
    follower.begin_run(CONFIG, SOURCE, False)
    assert events == [("facts", FACTS)] and follower.guesser == "the corpus's guesser"
    assert len(corpus.jobs) == 1


def test_a_run_with_other_settings_reads_the_corpus_again():
    follower, corpus, _steps, events = _follower()
    follower.prefetch(CONFIG, SOURCE, False)
    corpus.jobs[0](FACTS)
    follower.begin_run(CONFIG, SOURCE, True)  # jamo: other words
    assert len(corpus.jobs) == 2 and events == []
    corpus.jobs[1](FACTS)
    assert events == [("facts", FACTS)]


def test_the_step_on_screen_gets_its_facts_and_a_forgotten_run_gets_none():
    playback = Playback(cursor=3)
    follower, corpus, steps, events = _follower(playback)
    follower.begin_run(CONFIG, SOURCE, False)
    corpus.jobs[0](FACTS)
    follower.follow(3, REPLAY, CONFIG)
    follower.follow(3, REPLAY, CONFIG)  # asked once per step
    assert len(steps.jobs) == 1 and follower.asked_step == 3
    result = StepFacts(3, (), candidates=SimpleNamespace(pairs=()))
    steps.jobs[0](result)
    assert events[-1] == ("step", 3) and follower.facts_of(3) is result and follower.facts_of(2) is None

    follower.follow(4, REPLAY, CONFIG)
    follower.forget_run()  # reset while the worker computes step 4
    steps.jobs[1](StepFacts(4, (), candidates=SimpleNamespace(pairs=())))
    assert follower.step_facts is None and events[-1] == ("step", 3)


def test_no_step_is_followed_while_playing_faster_than_a_room_reads():
    playback = Playback(cursor=2, playing=True, pace=FOLLOW_PACE * 10)
    follower, corpus, steps, _events = _follower(playback)
    follower.begin_run(CONFIG, SOURCE, False)
    corpus.jobs[0](FACTS)
    follower.follow(2, REPLAY, CONFIG)
    assert steps.jobs == []
    playback.pause()  # asked again once the playback stops
    follower.follow(2, REPLAY, CONFIG)
    assert len(steps.jobs) == 1
    follower.close()
    assert corpus.closed and steps.closed
