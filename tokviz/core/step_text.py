"""What happened at a training step, in plain sentences a student can follow, ready for translation.

The trainers' events carry a one-line ``description``; this module explains a step in a few
sentences with the numbers behind it: a WordPiece merge and its score, a Unigram EM iteration
(E-step, M-step, pieces dropped), a pruning round (which pieces went and why), the final cut, and
where BPE's and WordPiece's criteria first disagree.

**Translation hook.** tokviz's core does not import Qt, so it cannot call ``tr()``. Each sentence is
kept as an English *template* with named fields (:class:`~tokviz.core.sentences.Sentence`); :meth:`StepText.text` takes a
``translate(context, template)`` callable, the signature of ``QCoreApplication.translate``, and
formats the translated template with the same fields. The Train panel passes
``QCoreApplication.translate`` and gets Korean from ``tokviz_ko.ts`` under the context
:data:`CONTEXT`; :func:`templates` lists every template for translators. A translation whose
fields differ from its template's (a typo in ``{count}``) is ignored and the English shown, so a
broken translation never breaks the panel.

>>> from tokviz.core.wordpiece.trainer import WordPieceStep
>>> e = WordPieceStep(step=3, description="", left="##g", right="##s", new_piece="##gs", token_id=30,
...                   pair_count=5, left_count=20, right_count=5, score=0.05, vocab_size=31)
>>> print(describe(e).text())
Merge 3: ##g + ##s → ##gs. WordPiece merges the pair with the highest score freq(ab) / (freq(a) × freq(b)) = 5 / (20 × 5) = 0.05. Every ##s comes right after ##g. Both pieces continue a word, so ##gs continues a word too (it keeps its ##). The vocabulary now holds 31 tokens.
>>> ko = {"The vocabulary now holds {size:,} tokens.": "이제 어휘에 토큰이 {size:,}개 있습니다."}
>>> describe(e).sentences[-1].render(lambda context, s: ko.get(s, s))
'이제 어휘에 토큰이 31개 있습니다.'
"""  # noqa: E501 (a doctest's expected output line cannot be wrapped)

from __future__ import annotations

from dataclasses import dataclass

from tokviz.core.bpe.events import MergeStep
from tokviz.core.merge_disagreement import Disagreement
from tokviz.core.sentences import Sentence, Translate, templates_in
from tokviz.core.training import StepEvent
from tokviz.core.unigram.events import EMStep, FinalStep, PruneStep, RemovedPiece
from tokviz.core.wordpiece.trainer import WordPieceStep

CONTEXT = "StepText"  # the translation context of every Sentence here (Sentence's default)
EXAMPLES = 3  # pieces named as examples in one sentence

__all__ = ["CONTEXT", "Sentence", "StepText", "Translate", "describe", "disagreement_text", "templates"]


@dataclass(frozen=True)
class StepText:
    """A step explained: a short ``title`` and the ``sentences`` that follow it."""

    title: Sentence
    sentences: tuple[Sentence, ...]

    def text(self, translate: Translate | None = None) -> str:
        """Title and sentences as one paragraph (``"Title. Sentence. Sentence."``)."""
        return " ".join([self.title.render(translate) + "."] + [s.render(translate) for s in self.sentences])

    def lines(self, translate: Translate | None = None) -> list[str]:
        """The title, then one sentence per line (for a banner with room)."""
        return [self.title.render(translate)] + [s.render(translate) for s in self.sentences]


def _examples(removed: list[RemovedPiece], with_value: str | None = None) -> str:
    """``"▁ab (0.31), xy (0.12)"``: the first few pieces, with their value when it means something."""
    shown = []
    for r in removed[:EXAMPLES]:
        shown.append(f"{r.piece} ({format(r.value, with_value)})" if with_value else r.piece)
    more = len(removed) - len(shown)
    return ", ".join(shown) + (f", … (+{more:,})" if more > 0 else "")


# ---- WordPiece ---------------------------------------------------------------------------------
def _wordpiece(e: WordPieceStep) -> StepText:
    s = [Sentence("WordPiece merges the pair with the highest score freq(ab) / (freq(a) × freq(b)) = "
                  "{pair:,} / ({left_count:,} × {right_count:,}) = {score:.4g}.",
                  {"pair": e.pair_count, "left_count": e.left_count, "right_count": e.right_count, "score": e.score})]
    names = {"left": e.left, "right": e.right, "new": e.new_piece}
    if e.pair_count == e.left_count == e.right_count:
        s.append(Sentence("{left} and {right} never appear apart, so the score is as high as their count allows.",
                          names))
    elif e.pair_count == e.right_count:
        s.append(Sentence("Every {right} comes right after {left}.", names))
    elif e.pair_count == e.left_count:
        s.append(Sentence("Every {left} is followed by {right}.", names))
    else:
        s.append(Sentence("{share:.0%} of the {left} are followed by {right}, and {share_right:.0%} of the {right} "
                          "come after {left}.",
                          dict(names, share=e.pair_count / e.left_count, share_right=e.pair_count / e.right_count)))
    if e.left.startswith("##"):
        s.append(Sentence("Both pieces continue a word, so {new} continues a word too (it keeps its ##).", names))
    else:
        s.append(Sentence("{left} starts a word, so {new} starts a word too (the ## of {right} goes).", names))
    s.append(Sentence("The vocabulary now holds {size:,} tokens.", {"size": e.vocab_size}))
    return StepText(Sentence("Merge {step:,}: {left} + {right} → {new}", dict(names, step=e.step)), tuple(s))


# ---- BPE (for the side-by-side view) ------------------------------------------------------------
def _bpe(e: MergeStep) -> StepText:
    names = {"left": e.left_piece, "right": e.right_piece, "new": e.new_piece, "step": e.step}
    s = (Sentence("BPE merges the most frequent pair (count {count:,}).", {"count": e.count}),
         Sentence("The vocabulary now holds {size:,} tokens.", {"size": e.vocab_size}))
    return StepText(Sentence("Merge {step:,}: {left} + {right} → {new}", names), s)


# ---- Unigram -----------------------------------------------------------------------------------
def _em(e: EMStep, previous: object | None) -> StepText:
    s = [Sentence("E-step: forward–backward over every word's lattice gives each piece its expected count; the "
                  "corpus log-likelihood under the current scores is {log_likelihood:,.1f}.",
                  {"log_likelihood": e.log_likelihood})]
    if isinstance(previous, EMStep):
        s.append(Sentence("That is {change:+,.1f} since the previous iteration.",
                          {"change": e.log_likelihood - previous.log_likelihood}))
    s.append(Sentence("M-step: each piece's new score is digamma(its expected count) − digamma(the sum of all "
                      "expected counts), a log-probability with a prior that favours fewer pieces."))
    dropped = [r for r in e.removed if r.reason == "low_expected_count"]
    if dropped:
        s.append(Sentence("Dropped because their expected count fell below 0.5: {count:,} ({examples}).",
                          {"count": len(dropped), "examples": _examples(dropped, ".2f")}))
    s.append(Sentence("The best segmentation of the corpus takes {tokens:,} tokens; the vocabulary holds "
                      "{size:,} pieces.", {"tokens": e.tokens, "size": e.vocab_size}))
    return StepText(Sentence("EM round {round}, iteration {iteration}", {"round": e.round, "iteration": e.iteration}),
                    tuple(s))


def _prune(e: PruneStep) -> StepText:
    s = [Sentence("A piece's loss is how much the corpus log-likelihood would drop if the piece were gone and "
                  "its occurrences were split the next best way; the pieces with the smallest losses go.")]
    by_loss = [r for r in e.removed if r.reason == "loss"]
    unused = [r for r in e.removed if r.reason == "unused"]
    split = [r for r in e.removed if r.reason == "split"]
    if by_loss:
        s.append(Sentence("Removed for the smallest losses ({low:.3g} to {high:.3g}): {count:,} ({examples}).",
                          {"count": len(by_loss), "low": by_loss[0].value, "high": by_loss[-1].value,
                               "examples": _examples(by_loss, ".3g")}))
    if unused:
        s.append(Sentence("Removed because no best segmentation of the corpus uses them: {count:,} ({examples}).",
                          {"count": len(unused), "examples": _examples(unused)}))
    if split:
        s.append(Sentence("Removed because their own best segmentation is other pieces: {count:,} ({examples}).",
                          {"count": len(split), "examples": _examples(split)}))
    if e.kept_loss_min is not None:
        s.append(Sentence("The smallest loss among the pieces kept is {kept:.3g}.", {"kept": e.kept_loss_min}))
    s.append(Sentence("This round keeps {share:.0%} of the pieces.", {"share": e.vocab_size / e.vocab_before}))
    return StepText(Sentence("Pruning round {round}: {before:,} → {after:,} pieces",
                             {"round": e.round, "before": e.vocab_before, "after": e.vocab_size}), tuple(s))


def _final(e: FinalStep) -> StepText:
    s = []
    cut = [r for r in e.removed if r.reason == "final_size"]
    if cut:
        s.append(Sentence("Cut for the lowest scores to reach the vocabulary size: {count:,} ({examples}).",
                          {"count": len(cut), "examples": _examples(cut, ".2f")}))
    if e.readded:
        s.append(Sentence("Characters that EM had dropped, added back with the lowest scores so that every "
                          "character of the corpus can still be written: {count:,} ({examples}).",
                          {"count": len(e.readded), "examples": ", ".join(e.readded[:EXAMPLES])
                               + (f", … (+{len(e.readded) - EXAMPLES:,})" if len(e.readded) > EXAMPLES else "")}))
    s.append(Sentence("The size counts the meta pieces <unk>, <s> and </s>."))
    return StepText(Sentence("Final vocabulary: {size:,} pieces", {"size": e.vocab_size}), tuple(s))


# ---- BPE beside WordPiece ----------------------------------------------------------------------
def disagreement_text(d: Disagreement) -> StepText:
    """The sentences of a :class:`~tokviz.core.merge_disagreement.Disagreement`."""
    b, w = d.bpe, d.wordpiece
    bb, ww = b.bpe[0], w.wordpiece[0]
    s = [Sentence("BPE merges {left} + {right}, the most frequent pair (count {count:,}).",
                  {"left": bb.left, "right": bb.right, "count": bb.pair_count}),
         Sentence("WordPiece merges {left} + {right}, the best score {pair:,} / ({left_count:,} × {right_count:,}) = "
                  "{score:.4g}.", _score_fields(ww))]
    if not b.wordpiece:
        s.append(Sentence("WordPiece has no pair spelled {left} + {right} at this step.",
                          {"left": b.surface[0], "right": b.surface[1]}))
    else:
        f = _score_fields(b.wordpiece[0])
        if d.wordpiece_reason == "tie":
            s.append(Sentence("WordPiece scores BPE's choice as {left} + {right}: {pair:,} / ({left_count:,} × "
                              "{right_count:,}) = {score:.4g}, the same score: WordPiece's tie rule decides.", f))
        else:
            s.append(Sentence("WordPiece scores BPE's choice as {left} + {right}: {pair:,} / ({left_count:,} × "
                              "{right_count:,}) = {score:.4g}.", f))
    if not w.bpe:
        s.append(Sentence("BPE has no pair spelled {left} + {right} at this step.",
                          {"left": w.surface[0], "right": w.surface[1]}))
    else:
        f = {"left": w.bpe[0].left, "right": w.bpe[0].right, "count": w.bpe[0].pair_count}
        if d.bpe_reason == "tie":
            s.append(Sentence("BPE counts WordPiece's choice as {left} + {right}: count {count:,}, the same count: "
                              "BPE's tie rule decides.", f))
        else:
            s.append(Sentence("BPE counts WordPiece's choice as {left} + {right}: count {count:,}.", f))
    return StepText(Sentence("Step {step:,}: the criteria disagree", {"step": d.step}), tuple(s))


def _score_fields(p) -> dict:
    return {"left": p.left, "right": p.right, "pair": p.pair_count, "left_count": p.left_count,
                "right_count": p.right_count, "score": p.score}


def describe(event: StepEvent | Disagreement, previous: StepEvent | None = None) -> StepText:
    """Explain a step event (``previous``: the step before it, for the change in log-likelihood).

    Step events of an algorithm this module does not know are shown by their own ``description``.
    """
    if isinstance(event, WordPieceStep):
        return _wordpiece(event)
    if isinstance(event, MergeStep):
        return _bpe(event)
    if isinstance(event, EMStep):
        return _em(event, previous)
    if isinstance(event, PruneStep):
        return _prune(event)
    if isinstance(event, FinalStep):
        return _final(event)
    if isinstance(event, Disagreement):
        return disagreement_text(event)
    if isinstance(event, StepEvent):  # an algorithm this module does not explain yet
        return StepText(Sentence("Step {step:,}", {"step": event.step}),
                        (Sentence("{description}", {"description": event.description}),))
    raise TypeError(f"not a step event: {event!r}")


def templates() -> tuple[str, ...]:
    """Every English template this module can produce, in source order, for translators and tests.

    Read from the module's source, so the list cannot fall behind the code (in a source checkout,
    where translation tools run).
    """
    import sys

    return templates_in(sys.modules[__name__], "Sentence")
