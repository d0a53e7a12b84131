"""WordPiece (BERT's vocabulary): the likelihood-scored trainer and the greedy longest-match encoder.

- :mod:`tokviz.core.wordpiece.model`: :class:`WordPieceModel` (an Encoder) and :func:`bert_words`.
- :mod:`tokviz.core.wordpiece.trainer`: :class:`WordPieceTrainer`, :class:`WordPieceConfig`,
  :class:`WordPieceStep`, satisfying :class:`tokviz.core.training.Trainer`.
"""
