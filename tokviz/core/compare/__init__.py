"""The same text (or corpus) through several encoders: per-encoder metrics, corpus totals, and how
much two vocabularies share.

Qt-free, like the rest of ``tokviz.core``: long work (a corpus, a 200k vocabulary) is a plain
function that takes a ``state`` object for progress and cancel (Orange3's pattern), so the GUI runs it
in a worker thread and tests call it directly.

One encoder failing never stops the others: its outcome carries the error message instead of
metrics.

The parts: :mod:`~tokviz.core.compare.outcome` (one text), :mod:`~tokviz.core.compare.corpus` (text
sets and corpora), :mod:`~tokviz.core.compare.vocabulary` (vocabulary overlap),
:mod:`~tokviz.core.compare.segmentations` (a unigram model's other segmentations) and
:mod:`~tokviz.core.compare.paragraphs` (re-using unchanged paragraphs of a long text).

>>> from tokviz.core.encoding import Encoding
>>> class Bytes:  # a toy byte-level encoder: one token per UTF-8 byte
...     name, family, source, byte_level, vocab_size = "bytes", "toy", "doctest", True, 256
...     def encode(self, text, *, allow_special=False):
...         return Encoding.from_byte_tokens(self.name, text, [(b, bytes([b])) for b in text.encode()])
...     def decode(self, ids):
...         return bytes(ids).decode("utf-8", "replace")
...     def special_tokens(self):
...         return {}
...     def token_bytes(self, token_id):
...         return bytes([token_id])
>>> [(o.encoder, o.metrics.tokens, o.metrics.partial_tokens) for o in compare_text([Bytes()], "a안")]
[('bytes', 4, 3)]
"""

from tokviz.core.compare.corpus import (
    SAMPLE_SET_ORDER,
    CompareState,
    CorpusComparison,
    CorpusTotals,
    NoState,
    TextSet,
    compare_corpus,
    corpus_set,
    sample_sets,
)
from tokviz.core.compare.outcome import (
    DIFF_LIMIT,
    DIFF_WINDOW,
    EncoderOutcome,
    compare_text,
    describe_failure,
    encode_outcome,
    local_differences,
)
from tokviz.core.compare.paragraphs import ParagraphCache, paragraph_spans, safe_cut
from tokviz.core.compare.segmentations import Segmentations, alternative_segmentations
from tokviz.core.compare.vocabulary import VocabOverlap, overlap_of, vocab_overlap, vocabulary

__all__ = [
    "DIFF_LIMIT", "DIFF_WINDOW", "SAMPLE_SET_ORDER", "CompareState", "CorpusComparison", "CorpusTotals",
    "EncoderOutcome", "NoState", "ParagraphCache", "Segmentations", "TextSet", "VocabOverlap",
    "alternative_segmentations", "compare_corpus", "compare_text", "corpus_set", "describe_failure",
    "encode_outcome", "local_differences", "overlap_of", "paragraph_spans", "safe_cut", "sample_sets",
    "vocab_overlap", "vocabulary",
]
