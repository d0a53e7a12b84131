"""WordPiece (BERT's vocabulary): the likelihood-scored trainer and the greedy longest-match encoder.

- :mod:`tokviz.core.wordpiece.model`: :class:`WordPieceModel` (an Encoder) and :func:`bert_words`.
- :mod:`tokviz.core.wordpiece.trainer`: :class:`WordPieceTrainer`, :class:`WordPieceConfig`,
  :class:`WordPieceStep`, satisfying :class:`tokviz.core.training.Trainer`.
- :mod:`tokviz.core.wordpiece.merge_state`: the symbols, pair counts and best-score heap the trainer
  merges on (each merge touches only the pair's occurrences).
"""
