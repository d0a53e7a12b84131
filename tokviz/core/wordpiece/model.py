"""A WordPiece vocabulary as an Encoder: BERT's greedy longest-match-first with ``##``.

Words are split as HF tokenizers' ``BertPreTokenizer`` does: whitespace separates words and every
punctuation character (Unicode category P*, or ASCII punctuation such as ``$ + < = > ^ ` |``) is a
word of its own. Nothing is lowercased. Each word is covered left to right by the longest
vocabulary entry that matches (``##`` in front for every piece but the first); a word that cannot be
covered, or longer than ``max_input_chars_per_word``, is one ``[UNK]``.

>>> m = WordPieceModel(["[PAD]", "[UNK]", "[CLS]", "[SEP]", "[MASK]", "a", "b", "##b", "ab", "##a"])
>>> [t.raw for t in m.encode("abba, c").tokens]  # ',' and 'c' are not in the vocabulary
['ab', '##b', '##a', '[UNK]', '[UNK]']
>>> m.decode(m.encode("abba ab").ids)
'abba ab'
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import regex

from tokviz.core.encoding import Encoding, char_byte_starts
from tokviz.core.errors import TokvizError, check_text
from tokviz.core.special_tokens import SpecialSpans

SPECIALS = ("[PAD]", "[UNK]", "[CLS]", "[SEP]", "[MASK]")
CONTINUATION = "##"
_PUNCT = r"\p{P}!-/:-@\[-`{-~"
# a run of characters that are neither whitespace nor punctuation, or one punctuation character
BERT_WORD = regex.compile(rf"[^\p{{White_Space}}{_PUNCT}]+|[{_PUNCT}]")


def bert_words(text: str) -> list[str]:
    """Words as BertPreTokenizer splits them.

    >>> bert_words("Hello, 세계!! a-b")
    ['Hello', ',', '세계', '!', '!', 'a', '-', 'b']
    """
    return BERT_WORD.findall(text)


class WordPieceModel:
    """A WordPiece vocabulary (token id = position in ``vocab``) as an Encoder."""

    family = "tokviz-wordpiece"
    byte_level = False  # whitespace is dropped, uncoverable words become [UNK]

    def __init__(
        self,
        vocab: Sequence[str],
        *,
        unk: str = "[UNK]",
        special: Sequence[str] = SPECIALS,
        max_input_chars_per_word: int = 100,
        name: str | None = None,
        source: str = "trained in tokviz",
        settings: Mapping | None = None,
    ):
        if unk not in vocab:
            raise TokvizError(f"the unknown token {unk!r} is not in the vocabulary")
        self.vocab = list(vocab)
        self.unk_id = self.vocab.index(unk)
        self.max_input_chars_per_word = max_input_chars_per_word
        self.name = name or f"tokviz WordPiece ({len(self.vocab)} tokens)"
        self.source = source
        self.settings = dict(settings or {})
        self._id_of: dict[str, int] = {}
        for i, p in enumerate(self.vocab):
            self._id_of.setdefault(p, i)
        self._specials = {p: self._id_of[p] for p in special if p in self._id_of}
        self._special_of_id = {i: p for p, i in self._specials.items()}
        self._special_spans = SpecialSpans(self._specials)
        self._max_len = max((len(p) for p in self.vocab), default=1)
        self._cache: dict[str, list[tuple[int, int, int]]] = {}

    @property
    def vocab_size(self) -> int:
        return len(self.vocab)

    def special_tokens(self) -> Mapping[str, int]:
        return dict(self._specials)

    def token_piece(self, token_id: int) -> str:
        self._check_id(token_id)
        return self.vocab[token_id]

    def token_id(self, piece: str) -> int:
        return self._id_of[piece]

    def token_bytes(self, token_id: int) -> bytes:
        """The token's text without ``##`` (specials as their own text)."""
        p = self.token_piece(token_id)
        if token_id not in self._special_of_id and p.startswith(CONTINUATION) and len(p) > 2:
            p = p[2:]
        return p.encode("utf-8")

    def _check_id(self, token_id: int) -> None:
        if not 0 <= token_id < len(self.vocab):
            raise TokvizError(f"token id {token_id} is outside the vocabulary (0..{len(self.vocab) - 1})")

    def decode(self, ids: Sequence[int]) -> str:
        """Tokens joined with spaces, ``##`` pieces glued to the one before (HF's WordPiece decoder)."""
        out: list[str] = []
        for i in ids:
            p = self.token_piece(i)
            if out and p.startswith(CONTINUATION) and i not in self._special_of_id:
                out[-1] += p[2:]
            else:
                out.append(p)
        return " ".join(out)

    def encode(self, text: str, *, allow_special: bool = False) -> Encoding:
        """Greedy longest-match-first tokens of ``text`` with byte spans (see the module docstring)."""
        data = check_text(text)
        starts = char_byte_starts(text, data)
        rows = []
        for s, e, sid in self._special_spans.segments(text, allow_special):
            if sid is not None:
                rows.append((sid, data[starts[s]:starts[e]], starts[s], starts[e], "special", self.vocab[sid]))
                continue
            for m in BERT_WORD.finditer(text, s, e):
                ws = m.start()
                for tid, i, j in self.word_pieces(m.group()):
                    bs, be = starts[ws + i], starts[ws + j]
                    kind = "unknown" if tid == self.unk_id else "normal"
                    rows.append((tid, data[bs:be], bs, be, kind, self.vocab[tid]))
        return Encoding.from_spans(self.name, text, rows)

    def word_pieces(self, word: str) -> list[tuple[int, int, int]]:
        """``(id, start, end)`` character spans of one word's pieces; ``[(unk, 0, len)]`` if it
        cannot be covered."""
        found = self._cache.get(word)
        if found is not None:
            return found
        n = len(word)
        out: list[tuple[int, int, int]] = []
        if n > self.max_input_chars_per_word:
            out = [(self.unk_id, 0, n)]
        else:
            start = 0
            id_of = self._id_of
            while start < n:
                end = min(n, start + self._max_len)
                tid = None
                while end > start:
                    sub = word[start:end] if start == 0 else CONTINUATION + word[start:end]
                    tid = id_of.get(sub)
                    if tid is not None and tid not in self._special_of_id:
                        break
                    tid = None
                    end -= 1
                if tid is None:
                    out = [(self.unk_id, 0, n)]
                    break
                out.append((tid, start, end))
                start = end
        if len(self._cache) < 100_000:
            self._cache[word] = out
        return out

