"""SentencePiece's Unigram language model, trained and applied by tokviz's own code.

- :mod:`tokviz.core.unigram.model`: :class:`UnigramModel` (an Encoder: Viterbi encoding, n-best,
  sampling with alpha, and the lattice as plain data for drawing).
- :mod:`tokviz.core.unigram.trainer`: :class:`UnigramTrainer` (seed pieces, EM with the digamma prior,
  pruning by loss), satisfying :class:`tokviz.core.training.Trainer`.
- :mod:`tokviz.core.unigram.events`: the step events it yields.
"""
