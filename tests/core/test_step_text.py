"""Step descriptions: the numbers in the sentences are the events' numbers, every branch is reachable
from a real run, every sentence comes from a listed template, and the translation hook works."""

from __future__ import annotations

import pytest

from tests.support.mixed_corpus import mixed_lines
from tokviz.core.bpe.events import MergeStep
from tokviz.core.merge_criteria import first_disagreement
from tokviz.core.step_text import CONTEXT, Sentence, StepText, describe, templates
from tokviz.core.training import StepEvent
from tokviz.core.unigram.events import EMStep, FinalStep, PruneStep, RemovedPiece
from tokviz.core.unigram.trainer import UnigramConfig, UnigramTrainer
from tokviz.core.wordpiece.trainer import WordPieceConfig, WordPieceStep, WordPieceTrainer

HUG = " ".join(["hug"] * 10 + ["pug"] * 5 + ["pun"] * 12 + ["bun"] * 4 + ["hugs"] * 5) + "\n"


def _wordpiece_steps(text, n):
    t = WordPieceTrainer(WordPieceConfig(vocab_size=10**6))
    return [e for e in t.run([text]) if isinstance(e, WordPieceStep)][:n]


def test_wordpiece_merge_explained_with_its_counts():
    first, second = _wordpiece_steps(HUG, 2)
    # ##g = 20 (hug 10, pug 5, hugs 5), ##s = 5: every ##s follows ##g
    assert describe(first).lines() == [
        "Merge 1: ##g + ##s → ##gs",
        "WordPiece merges the pair with the highest score freq(ab) / (freq(a) × freq(b)) = 5 / (20 × 5) = 0.05.",
        "Every ##s comes right after ##g.",
        "Both pieces continue a word, so ##gs continues a word too (it keeps its ##).",
        f"The vocabulary now holds {first.vocab_size} tokens.",
    ]
    # then h + ##u, p + ##u and b + ##u all score 1/36 (##u = 36, every h, p, b is followed by ##u);
    # the larger count wins: p + ##u, 17
    assert (second.left, second.right) == ("p", "##u")
    lines = describe(second).lines()
    assert lines[1].endswith("= 17 / (17 × 36) = 0.02778.")
    assert lines[2] == "Every p is followed by ##u."
    assert lines[3] == "p starts a word, so pu starts a word too (the ## of ##u goes)."


def test_wordpiece_shares_and_never_apart():
    # c ##a ##c, c ##c ##a: c, ##a, ##c twice each, every pair once: all score 1/4, and the smallest
    # strings win the tie: ##a + ##c, half of each
    (step,) = _wordpiece_steps("cac cca\n", 1)
    assert (step.left, step.right) == ("##a", "##c")
    assert "50% of the ##a are followed by ##c, and 50% of the ##c come after ##a." in describe(step).text()
    (step,) = _wordpiece_steps("xz\n", 1)
    assert "x and ##z never appear apart" in describe(step).text()


def test_unigram_steps_explained_with_their_numbers():
    t = UnigramTrainer(UnigramConfig(vocab_size=9))
    events = [e for e in t.run(["ab\n"] * 10) if isinstance(e, (EMStep, PruneStep, FinalStep))]
    em1, em2 = events[0], events[1]
    text = describe(em1).text()
    assert text.startswith("EM round 0, iteration 1. E-step:")
    assert f"{em1.log_likelihood:,.1f}." in text
    # the hand-worked first iteration drops a: expected count 10 × .001/.341 = 0.03
    assert "Dropped because their expected count fell below 0.5: 1 (a (0.03))." in text
    assert "since the previous iteration" not in text
    assert f"That is {em2.log_likelihood - em1.log_likelihood:+,.1f} since the previous iteration." in (
        describe(em2, em1).text())
    final = events[-1]
    assert isinstance(final, FinalStep) and "a" in final.readded
    assert f"Final vocabulary: {final.vocab_size} pieces." in describe(final).text()
    assert f"can still be written: {len(final.readded)} ({', '.join(final.readded)})." in describe(final).text()


def test_pruning_round_counts_add_up():
    t = UnigramTrainer(UnigramConfig(vocab_size=300))
    prunes = [e for e in t.run(mixed_lines(800)) if isinstance(e, PruneStep)]
    assert prunes
    for p in prunes:
        text = describe(p).text()
        assert text.startswith(f"Pruning round {p.round}: {p.vocab_before:,} → {p.vocab_size:,} pieces.")
        by_reason = {r: sum(1 for x in p.removed if x.reason == r) for r in ("loss", "unused", "split")}
        assert sum(by_reason.values()) == p.vocab_before - p.vocab_size
        if by_reason["loss"]:
            assert f"): {by_reason['loss']:,} (" in text
        assert f"This round keeps {p.vocab_size / p.vocab_before:.0%} of the pieces." in text


def test_disagreement_and_bpe_steps():
    d = first_disagreement(["da da da db cb cb c\n"]).disagreement
    assert describe(d).lines() == [
        "Step 2: the criteria disagree",
        "BPE merges c + b</w>, the most frequent pair (count 2).",
        "WordPiece merges d + ##b, the best score 1 / (1 × 3) = 0.3333.",
        "WordPiece scores BPE's choice as c + ##b: 2 / (3 × 3) = 0.2222.",
        "BPE counts WordPiece's choice as d + b</w>: count 1.",
    ]
    assert d.description == describe(d).text()
    # cd, ad: equal counts and equal scores; only the tie rules differ (BPE: larger strings, WordPiece: smaller)
    tie = first_disagreement(["cd ad\n"]).disagreement
    assert tie.description.endswith("WordPiece scores BPE's choice as c + ##d: 1 / (1 × 2) = 0.5, the same score: "
                                     "WordPiece's tie rule decides. BPE counts WordPiece's choice as a + d</w>: "
                                     "count 1, the same count: BPE's tie rule decides.")
    m = MergeStep(step=4, token_id=9, left=1, right=2, left_piece="l", right_piece="o", new_piece="lo",
                  new_bytes=b"lo", count=7, vocab_size=12, corpus_tokens=40, corpus_chars=50)
    assert describe(m).text() == ("Merge 4: l + o → lo. BPE merges the most frequent pair (count 7). "
                                  "The vocabulary now holds 12 tokens.")


def test_an_unknown_event_shows_its_own_description():
    class Other(StepEvent):
        step = 5
        description = "something else happened"
        vocab_size = 100

    assert describe(Other()).text() == "Step 5. something else happened"
    with pytest.raises(TypeError):
        describe(object())  # not a step event: a caller's bug, not something to show


# ---- the translation hook ----------------------------------------------------------------------
KO = {
    "Merge {step:,}: {left} + {right} → {new}": "병합 {step:,}: {left} + {right} → {new}",
    "Every {right} comes right after {left}.": "모든 {right}은(는) {left} 바로 뒤에 옵니다.",
    "The vocabulary now holds {size:,} tokens.": "이제 어휘에 토큰이 {size:,}개 있습니다.",
    "EM round {round}, iteration {iteration}": "EM {round}라운드, {iteration}번째 반복",
}


def ko(context, source):
    assert context == CONTEXT
    return KO.get(source, source)


def test_translation_hook_renders_korean_and_keeps_english_elsewhere():
    first = _wordpiece_steps(HUG, 1)[0]
    lines = describe(first).lines(ko)
    assert lines[0] == "병합 1: ##g + ##s → ##gs"
    assert lines[2] == "모든 ##s은(는) ##g 바로 뒤에 옵니다."
    assert lines[-1] == f"이제 어휘에 토큰이 {first.vocab_size}개 있습니다."
    assert lines[1].startswith("WordPiece merges")  # untranslated: English


def test_a_broken_translation_falls_back_to_english():
    s = Sentence("The vocabulary now holds {size:,} tokens.", {"size": 1200})
    assert s.render(lambda c, t: "어휘 {sise:,}개") == "The vocabulary now holds 1,200 tokens."  # misspelt field
    assert s.render(lambda c, t: "어휘 {size:q}개") == "The vocabulary now holds 1,200 tokens."  # bad format spec
    assert s.render(lambda c, t: "") == "The vocabulary now holds 1,200 tokens."  # Qt's "no translation"
    assert s.render(lambda c, t: "어휘가 있습니다") == "The vocabulary now holds 1,200 tokens."  # the number left out
    title = Sentence("Merge {step:,}", {"step": 3})
    assert StepText(title, (s,)).text(lambda c, t: "") == "Merge 3. The vocabulary now holds 1,200 tokens."


def test_every_sentence_of_real_runs_comes_from_a_listed_template():
    listed = set(templates())
    assert len(listed) >= 30
    seen = set()

    def record(context, template):
        seen.add(template)
        return template

    events = []
    prev = None
    t = UnigramTrainer(UnigramConfig(vocab_size=300))
    for e in t.run(mixed_lines(800)):
        if isinstance(e, (EMStep, PruneStep, FinalStep)):
            events.append((e, prev))
            prev = e
    events += [(e, None) for e in _wordpiece_steps(HUG, 40) + _wordpiece_steps("cac cca xz\n", 3)]
    for corpus in (["da da da db cb cb c\n"], ["ab ab ab abc\n"], ["cd ad\n"]):
        events.append((first_disagreement(corpus).disagreement, None))
    # a piece whose own best segmentation is other pieces: rare in real runs, so made here
    events.append((PruneStep(step=9, description="", round=1, vocab_before=10, vocab_size=9,
                             removed=(RemovedPiece("▁abc", "split"),), kept_loss_min=None), None))
    for e, before in events:
        describe(e, before).text(record)
    describe(type("Other", (StepEvent,), {"step": 1, "description": "x"})()).text(record)
    assert seen <= listed
    # only BPE's own merge sentence is left (test_disagreement_and_bpe_steps renders it)
    assert listed - seen == {"BPE merges the most frequent pair (count {count:,})."}


def test_hook_with_qt_translate(qapp):
    # pytest-qt's QApplication: a bare QCoreApplication made here would outlive the test and make
    # every later QWidget abort the interpreter ("Cannot create a QWidget without QApplication")
    qt = pytest.importorskip("PySide6.QtCore")
    app = qapp

    class Korean(qt.QTranslator):
        def translate(self, context, source, disambiguation=None, n=-1):
            return KO.get(source, "") if context == CONTEXT else ""

        def isEmpty(self):
            return False

    tr = Korean()
    app.installTranslator(tr)
    try:
        first = _wordpiece_steps(HUG, 1)[0]
        lines = describe(first).lines(qt.QCoreApplication.translate)
        assert lines[0] == "병합 1: ##g + ##s → ##gs" and lines[1].startswith("WordPiece merges")
    finally:
        app.removeTranslator(tr)
