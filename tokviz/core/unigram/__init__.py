"""SentencePiece's Unigram language model, trained and applied by tokviz's own code.

- :mod:`tokviz.core.unigram.model`: :class:`UnigramModel` (an Encoder: Viterbi encoding, n-best,
  sampling with alpha, and the lattice as plain data for drawing).
- :mod:`tokviz.core.unigram.trainer`: :class:`UnigramTrainer` (seed pieces, EM with the digamma prior,
  pruning by loss), satisfying :class:`tokviz.core.training.Trainer`; it drives
  :mod:`~tokviz.core.unigram.seeds` (seed pieces and the lattices, built once) and
  :mod:`~tokviz.core.unigram.state` (EM iteration, pruning round, final cut), over the flattened lattices
  of :mod:`~tokviz.core.unigram.flat_lattice`.
- :mod:`tokviz.core.unigram.events`: the step events it yields.
"""
