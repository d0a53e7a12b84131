"""A Unigram language model (SentencePiece's ``model_type=unigram``) as a tokviz Encoder.

Text is seen as SentencePiece sees it with identity normalization and its default whitespace
handling: whitespace runs separate words, each word gets ``▁`` in front (the dummy prefix for the
first word), and a piece never crosses a word. The ``▁`` of a word covers the whitespace character
just before it (an empty span for the dummy prefix); further whitespace between words is a gap.

Encoding is Viterbi over each word's lattice (every vocabulary piece that matches at a character
position is an arc scored with its log-probability). Ties go to the path whose last piece is longest,
as in SentencePiece's encoder. A character that no piece covers is an ``<unk>`` arc scored
``min score - 10``; consecutive unknown characters join into one ``<unk>`` token, as SentencePiece
and HF tokenizers do.

>>> m = UnigramModel(["<unk>", "<s>", "</s>", "▁", "a", "b", "▁ab", "ab"], [0, 0, 0, -3, -2, -2, -1, -1.5])
>>> [t.raw for t in m.encode("ab ba").tokens]
['▁ab', '▁', 'b', 'a']
>>> m.decode(m.encode("ab ba").ids)
'ab ba'
"""

from __future__ import annotations

import math
import random
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from tokviz.core.encoding import Encoding, char_byte_starts
from tokviz.core.errors import TokvizError, check_text
from tokviz.core.special_tokens import SpecialSpans

SPACE_MARK = "\u2581"  # ▁
UNK_PENALTY = 10.0  # SentencePiece's kUnkPenalty: an unknown character scores min_score - 10
META_PIECES = ("<unk>", "<s>", "</s>")
# Whitespace is what str.split() splits on (str.isspace); the trainer counts words the same way.
WORD = re.compile(r"\S+")


@dataclass(frozen=True)
class LatticeArc:
    """One candidate piece over the symbols ``[start, end)`` of a :class:`Lattice`."""

    start: int
    end: int
    token_id: int
    piece: str  # the vocabulary piece (``<unk>`` for an unknown character)
    log_prob: float  # the piece's score (its log-probability); unknown: min score - 10
    unknown: bool = False  # an <unk> arc over a character no piece covers


@dataclass(frozen=True)
class Lattice:
    """Every candidate segmentation of a text, as plain data a view can draw.

    ``symbols`` are the characters the model sees (``▁`` for each word's leading space or dummy
    prefix); node ``i`` sits before symbol ``i``. ``byte_spans[i]`` is symbol ``i``'s span in the
    text's UTF-8 (``▁`` of the dummy prefix: empty). ``arcs`` are ordered by ``(start, end)``;
    ``viterbi`` holds the arc indices of the best path and ``viterbi_score`` its log-probability.
    """

    text: str
    symbols: tuple[str, ...]
    byte_spans: tuple[tuple[int, int], ...]
    arcs: tuple[LatticeArc, ...]
    viterbi: tuple[int, ...]
    viterbi_score: float

    def nbest(self, k: int) -> list[tuple[tuple[int, ...], float]]:
        """The ``k`` best segmentations as ``(arc indices, log-probability)``, best first.

        Exact k-best over the lattice (a DAG): each node keeps its k best partial paths.
        """
        if k < 1:
            raise TokvizError(f"n-best needs k >= 1, not {k}")
        n = len(self.symbols)
        ending: list[list[int]] = [[] for _ in range(n + 1)]
        for ai, a in enumerate(self.arcs):
            ending[a.end].append(ai)
        # best[j]: up to k (score, arc, rank in best[start]) sorted best first
        best: list[list[tuple[float, int, int]]] = [[] for _ in range(n + 1)]
        best[0] = [(0.0, -1, -1)]
        for j in range(1, n + 1):
            cand = []
            for ai in ending[j]:
                a = self.arcs[ai]
                for r, (s, _, _) in enumerate(best[a.start]):
                    cand.append((s + a.log_prob, ai, r))
            cand.sort(key=lambda c: -c[0])  # stable: ties keep the longest last piece first
            best[j] = cand[:k]
        out = []
        for r in range(len(best[n])):
            path = []
            j, rr = n, r
            score = best[n][r][0]
            while j > 0:
                _, ai, prev = best[j][rr]
                path.append(ai)
                j, rr = self.arcs[ai].start, prev
            out.append((tuple(reversed(path)), score))
        return out

    def sample(self, alpha: float, rng: random.Random) -> tuple[int, ...]:
        """One segmentation drawn with probability proportional to ``P(path) ** alpha``.

        Forward filtering, backward sampling, as SentencePiece's ``SampleEncode`` (``nbest=-1``):
        ``alpha`` near 0 samples almost uniformly, large ``alpha`` approaches Viterbi.
        """
        n = len(self.symbols)
        ending: list[list[int]] = [[] for _ in range(n + 1)]
        for ai, a in enumerate(self.arcs):
            ending[a.end].append(ai)
        fwd = [0.0] + [-math.inf] * n
        for j in range(1, n + 1):
            vals = [fwd[self.arcs[ai].start] + alpha * self.arcs[ai].log_prob for ai in ending[j]]
            fwd[j] = _logsumexp(vals)
        path = []
        j = n
        while j > 0:
            arcs = ending[j]
            weights = [math.exp(fwd[self.arcs[ai].start] + alpha * self.arcs[ai].log_prob - fwd[j]) for ai in arcs]
            ai = rng.choices(arcs, weights=weights)[0]
            path.append(ai)
            j = self.arcs[ai].start
        return tuple(reversed(path))

    def path_pieces(self, path: Sequence[int]) -> list[str]:
        """The pieces along ``path`` (arc indices)."""
        return [self.arcs[i].piece for i in path]

    def path_score(self, path: Sequence[int]) -> float:
        return sum(self.arcs[i].log_prob for i in path)


def _logsumexp(vals: Sequence[float]) -> float:
    m = max(vals)
    if m == -math.inf:
        return m
    return m + math.log(sum(math.exp(v - m) for v in vals))


class UnigramModel:
    """Pieces with scores (log-probabilities) as an Encoder; see the module docstring.

    ``pieces[i]`` / ``scores[i]`` is token id ``i``. The pieces named in ``special`` (default: the
    meta pieces ``<unk> <s> </s>`` that SentencePiece puts at ids 0-2) never match plain text;
    ``unk`` names the piece unknown characters map to.
    """

    family = "tokviz-unigram"
    byte_level = False  # unknown characters become <unk>; the dummy prefix adds a space

    def __init__(
        self,
        pieces: Sequence[str],
        scores: Sequence[float],
        *,
        unk: str = "<unk>",
        special: Sequence[str] = META_PIECES,
        name: str | None = None,
        source: str = "trained in tokviz",
        settings: Mapping | None = None,
    ):
        if len(pieces) != len(scores):
            raise TokvizError(f"{len(pieces)} pieces but {len(scores)} scores")
        if unk not in pieces:
            raise TokvizError(f"the unknown piece {unk!r} is not in the vocabulary")
        self.pieces = list(pieces)
        self.scores = [float(s) for s in scores]
        self.name = name or f"tokviz Unigram ({len(self.pieces)} pieces)"
        self.source = source
        self.settings = dict(settings or {})
        self.unk_id = self.pieces.index(unk)
        self._specials = {p: i for i, p in enumerate(self.pieces) if p in set(special)}
        self._special_of_id = {i: p for p, i in self._specials.items()}
        normal = [i for i in range(len(self.pieces)) if i not in self._special_of_id]
        self._id_of: dict[str, int] = {}
        for i in normal:
            self._id_of.setdefault(self.pieces[i], i)
        self.min_score = min((self.scores[i] for i in normal), default=0.0)
        self.unk_score = self.min_score - UNK_PENALTY
        self._prefixes = {p[:k] for p in self._id_of for k in range(1, len(p) + 1)}
        self._bytes = [p.replace(SPACE_MARK, " ").encode("utf-8") for p in self.pieces]
        for i, p in self._special_of_id.items():
            self._bytes[i] = p.encode("utf-8")
        self._special_spans = SpecialSpans(self._specials)
        self._cache: dict[str, list[tuple[int, int, int]]] = {}

    # ---- Encoder protocol ------------------------------------------------------------------
    @property
    def vocab_size(self) -> int:
        return len(self.pieces)

    def special_tokens(self) -> Mapping[str, int]:
        return dict(self._specials)

    def token_bytes(self, token_id: int) -> bytes:
        """Bytes of a piece, ``▁`` as a space; specials (``<unk>``) as their own text."""
        self._check_id(token_id)
        return self._bytes[token_id]

    def token_piece(self, token_id: int) -> str:
        self._check_id(token_id)
        return self.pieces[token_id]

    def token_id(self, piece: str) -> int:
        if piece in self._specials:
            return self._specials[piece]
        return self._id_of[piece]

    def score(self, token_id: int) -> float:
        self._check_id(token_id)
        return self.scores[token_id]

    def _check_id(self, token_id: int) -> None:
        if not 0 <= token_id < len(self.pieces):
            raise TokvizError(f"token id {token_id} is outside the vocabulary (0..{len(self.pieces) - 1})")

    def decode(self, ids: Sequence[int]) -> str:
        """Text of ``ids``: ``▁`` becomes a space, the dummy prefix's space is dropped, ``<unk>`` is U+FFFD.

        Specials other than ``<unk>`` decode to their own text.
        """
        out = []
        for i in ids:
            self._check_id(i)
            if i == self.unk_id:
                out.append("\ufffd")
            elif i in self._special_of_id:
                out.append(self.pieces[i])
            else:
                out.append(self.pieces[i].replace(SPACE_MARK, " "))
        text = "".join(out)
        return text.removeprefix(" ")

    def encode(self, text: str, *, allow_special: bool = False) -> Encoding:
        """Viterbi tokens of ``text`` with byte spans into its UTF-8 (see the module docstring).

        >>> m = UnigramModel(["<unk>", "<s>", "</s>", "▁", "a"], [0, 0, 0, -1, -1])
        >>> [(t.raw, t.byte_start, t.byte_end, t.kind) for t in m.encode("a가").tokens]
        [('▁', 0, 0, 'normal'), ('a', 0, 1, 'normal'), ('<unk>', 1, 4, 'unknown')]
        """
        data = check_text(text)
        starts = char_byte_starts(text, data)
        rows = []
        for s, e, sid in self._special_spans.segments(text, allow_special):
            if sid is not None:
                rows.append((sid, data[starts[s]:starts[e]], starts[s], starts[e], "special", self.pieces[sid]))
                continue
            for m in WORD.finditer(text, s, e):
                ws = m.start()
                mark = (starts[ws - 1], starts[ws]) if ws > s else (starts[ws], starts[ws])
                for tid, i, j in self._word(m.group()):
                    bs = mark[0] if i == 0 else starts[ws + i - 1]
                    be = mark[1] if j == 0 else starts[ws + j - 1]
                    unknown = tid == self.unk_id
                    rows.append((tid, data[bs:be], bs, be, "unknown" if unknown else "normal", self.pieces[tid]))
        return Encoding.from_spans(self.name, text, rows)

    def segment(self, word: str) -> list[str]:
        """Viterbi pieces of one word (without whitespace); ``▁`` is added in front.

        >>> UnigramModel(["<unk>", "▁", "▁a", "a"], [0, -2, -1, -1], special=["<unk>"]).segment("aa")
        ['▁a', 'a']
        """
        w = SPACE_MARK + word
        return [self.pieces[t] if t != self.unk_id else w[i:j] for t, i, j in self._word(word)]

    # ---- lattice, n-best, sampling ----------------------------------------------------------
    def lattice(self, text: str) -> Lattice:
        """The lattice of ``text`` (every word, joined), with the Viterbi path marked."""
        data = check_text(text)
        starts = char_byte_starts(text, data)
        symbols: list[str] = []
        spans: list[tuple[int, int]] = []
        arcs: list[LatticeArc] = []
        for m in WORD.finditer(text):
            ws, we = m.span()
            base = len(symbols)
            w = SPACE_MARK + m.group()
            symbols.extend(w)
            spans.append((starts[ws - 1], starts[ws]) if ws > 0 else (starts[ws], starts[ws]))
            spans.extend((starts[c], starts[c + 1]) for c in range(ws, we))
            for i, j, tid, sc in self._arcs(w):
                arcs.append(LatticeArc(base + i, base + j, tid, self.pieces[tid], sc, tid == self.unk_id))
        arcs.sort(key=lambda a: (a.start, a.end))
        n = len(symbols)
        best = [0.0] + [-math.inf] * n
        back = [-1] * (n + 1)
        by_start: list[list[int]] = [[] for _ in range(n + 1)]
        for ai, a in enumerate(arcs):
            by_start[a.start].append(ai)
        for i in range(n):
            for ai in by_start[i]:
                a = arcs[ai]
                cand = best[i] + a.log_prob
                if back[a.end] < 0 or cand > best[a.end]:
                    best[a.end], back[a.end] = cand, ai
        path = []
        j = n
        while j > 0:
            path.append(back[j])
            j = arcs[back[j]].start
        return Lattice(text, tuple(symbols), tuple(spans), tuple(arcs), tuple(reversed(path)), best[n] if n else 0.0)

    def path_encoding(self, lattice: Lattice, path: Sequence[int]) -> Encoding:
        """An Encoding of ``lattice.text`` from a path of arc indices (consecutive ``<unk>`` joined)."""
        data = lattice.text.encode("utf-8")
        rows: list[list] = []
        for ai in path:
            a = lattice.arcs[ai]
            bs = lattice.byte_spans[a.start][0] if a.start < len(lattice.byte_spans) else len(data)
            be = lattice.byte_spans[a.end - 1][1]
            if a.token_id == self.unk_id and rows and rows[-1][0] == self.unk_id and rows[-1][3] == bs:
                rows[-1][3] = be
                rows[-1][1] = data[rows[-1][2]:be]
                continue
            kind = "unknown" if a.token_id == self.unk_id else "normal"
            rows.append([a.token_id, data[bs:be], bs, be, kind, a.piece])
        return Encoding.from_spans(self.name, lattice.text, [tuple(r) for r in rows])

    def nbest(self, text: str, k: int) -> list[tuple[Encoding, float]]:
        """The ``k`` best segmentations of ``text`` with their log-probabilities, best first.

        >>> m = UnigramModel(["<unk>", "▁", "▁a", "a"], [0, -2, -1, -1], special=["<unk>"])
        >>> [([t.raw for t in e.tokens], s) for e, s in m.nbest("a", 2)]
        [(['▁a'], -1.0), (['▁', 'a'], -3.0)]
        """
        lat = self.lattice(text)
        return [(self.path_encoding(lat, p), s) for p, s in lat.nbest(k)]

    def sample(self, text: str, alpha: float = 0.1, seed: int | None = None) -> Encoding:
        """One segmentation of ``text`` sampled with probability proportional to ``P ** alpha``
        (subword regularization); the same ``seed`` gives the same result."""
        if not alpha >= 0:
            raise TokvizError(f"alpha must be 0 or more, not {alpha}")
        lat = self.lattice(text)
        return self.path_encoding(lat, lat.sample(alpha, random.Random(seed)))

    # ---- internals ---------------------------------------------------------------------------
    def _arcs(self, w: str):
        """``(start, end, id, score)`` of every arc over the symbols of ``w`` (``▁`` included), by
        start then length, with an ``<unk>`` arc where no single-character piece starts."""
        id_of, prefixes, scores = self._id_of, self._prefixes, self.scores
        n = len(w)
        for i in range(n):
            single = False
            for j in range(i + 1, n + 1):
                sub = w[i:j]
                if sub not in prefixes:
                    break
                tid = id_of.get(sub)
                if tid is not None:
                    single |= j == i + 1
                    yield i, j, tid, scores[tid]
            if not single:
                yield i, i + 1, self.unk_id, self.unk_score

    def _word(self, word: str) -> list[tuple[int, int, int]]:
        """Viterbi ``(id, start, end)`` over the symbols of ``▁word``; unknown runs joined."""
        found = self._cache.get(word)
        if found is not None:
            return found
        w = SPACE_MARK + word
        n = len(w)
        best = [0.0] * (n + 1)
        back_start = [-1] * (n + 1)
        back_id = [0] * (n + 1)
        id_of, prefixes, scores = self._id_of, self._prefixes, self.scores
        unk_id, unk_score = self.unk_id, self.unk_score
        for i in range(n):
            b = best[i]
            single = False
            for j in range(i + 1, n + 1):
                sub = w[i:j]
                if sub not in prefixes:
                    break
                tid = id_of.get(sub)
                if tid is not None:
                    if j == i + 1:
                        single = True
                    c = b + scores[tid]
                    if back_start[j] < 0 or c > best[j]:
                        best[j], back_start[j], back_id[j] = c, i, tid
            if not single:
                c = b + unk_score
                if back_start[i + 1] < 0 or c > best[i + 1]:
                    best[i + 1], back_start[i + 1], back_id[i + 1] = c, i, unk_id
        out: list[tuple[int, int, int]] = []
        j = n
        while j > 0:
            i, tid = back_start[j], back_id[j]
            if tid == unk_id and out and out[-1][0] == unk_id:
                out[-1] = (unk_id, i, out[-1][2])
            else:
                out.append((tid, i, j))
            j = i
        out.reverse()
        if len(self._cache) < 100_000:
            self._cache[word] = out
        return out
