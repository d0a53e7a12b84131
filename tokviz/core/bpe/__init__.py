"""tokviz's own BPE: an incremental trainer streaming MergeStep events, an encoder, formats.

The specification is :mod:`tokviz.core.bpe.reference`: the whole algorithm (count pairs, pick the
best with each mode's tie rule, merge left to right, encode lowest rank first, dropout's draws) in a
few functions a student can check by hand. Every fast route does the same work incrementally and is
property-tested against it in ``tests/core/bpe/test_reference.py``: the trainer and each merge route
of :mod:`~tokviz.core.bpe.merge_update`, :func:`~tokviz.core.bpe.merge.apply_merges` (encoding, the
model at any step, the replay model, BPE-dropout), :func:`tokviz.core.merge_criteria._replay` and
WordPiece's merge step. A change to a fast route that the reference does not also describe is a bug.
"""
