"""The Inspector's work off the GUI thread, as plain functions a channel of the WorkService runs.

Two steps, so that a font or width change re-lays out the last Encoding without calling the encoder:

- :func:`encode_text` — normalize, encode, count (the encoder call);
- :func:`lay_out` — the drawing of an Encoding: cells, colours, cell widths in the view's fonts and
  the cells wrapped for the view's width.

``encode_for_view`` runs both (a new text). Errors become ``result.error`` (a sentence for the
message bar), never an exception.
"""

from __future__ import annotations

import dataclasses
import time
import unicodedata
from contextlib import nullcontext
from dataclasses import dataclass, field

import numpy as np
from PySide6.QtCore import QCoreApplication
from PySide6.QtGui import QColor

from tokviz.core.compare.paragraphs import paragraph_spans
from tokviz.core.encoding import Encoding
from tokviz.core.errors import TokvizError, message_of
from tokviz.core.metrics import Metrics, measure
from tokviz.ui.common.work import WorkService, is_interrupt
from tokviz.ui.inspect.cells import MAX_DRAWN_TOKENS, Cell, CellLayout, CellMeasure, token_cells, wrap_cells
from tokviz.ui.token_colors import token_colors, token_marks

PAUSE_COLLECTION_CHARS = 100_000  # a text this long builds its result with garbage collection paused
PIECES_FROM_CHARS = 16_000  # a text this long is encoded a piece at a time (see encode_in_pieces)
PIECE_CHARS = 4_000  # a native encoder's call on this much text holds the GIL for tens of milliseconds
PROGRESS_S = 0.1  # how often a big text's encoding reports how far it got
OVERLAP_CHARS = 256  # neighbouring windows of an encoder without safe cuts share this much text
AGREE_TOKENS = 4  # two windows are joined where they agree on this many tokens


@dataclass(frozen=True)
class EncodeRequest:
    generation: int
    text: str
    encoder: str
    normalization: str = "none"
    allow_special: bool = False
    dark: bool = False
    fonts: tuple | None = None  # (text, hex) QFonts of the token view, to measure cells in the worker
    view_width: int = 0  # the token view's viewport width and mode, to wrap the cells in the worker
    view_mode: str = "text"
    chat: object = None  # a chat_composer.ChatRequest: the prompt is built and encoded by it (as `tokviz chat`)


@dataclass
class EncodeResult:
    request: EncodeRequest
    encoding: Encoding | None = None
    metrics: Metrics | None = None
    cells: list[Cell] = field(default_factory=list)
    colors: list[QColor] = field(default_factory=list)
    marks: list[bool] = field(default_factory=list)  # outlined tokens (same colour as the left neighbour)
    widths: tuple[list[float], list[float]] | None = None  # cell widths showing text, showing ids
    layout: CellLayout | None = None  # the cells wrapped for the request's view width
    special_tokens: list[str] = field(default_factory=list)
    unnormalized_tokens: int | None = None  # token count of the text before normalization
    error: str | None = None
    seconds: float = 0.0
    chat: object = None  # the chat_composer.ChatOutcome built for request.chat


def encode_in_pieces(encoder, text: str, allow_special: bool, is_stale=lambda: False,
                     progress=lambda done, total: None) -> Encoding | None:
    """``encoder.encode(text)``, a piece at a time when that gives the same Encoding (see
    :func:`_encode_pieces`); None when the request went stale on the way."""
    return _encode_pieces(encoder, text, allow_special, is_stale, progress)[0]


def _encode_pieces(encoder, text: str, allow_special: bool, is_stale=lambda: False,
                   progress=lambda done, total: None) -> tuple[Encoding | None, bool | None]:
    """``encoder.encode(text)``, a piece of about PIECE_CHARS characters at a time when that gives the
    same Encoding; None when the request went stale on the way.

    A native encoder (tokenizers, sentencepiece) holds the GIL for its whole call: on a 20 MB paste
    that froze the window for 17 s, and its intermediate objects took 7.9 GB. Pieces end where no
    byte-level encoder's token can cross (:func:`~tokviz.core.compare.safe_cut`, the paragraph
    cache's proof), so the stitched Encoding is exactly the whole-text one; between two pieces the GUI
    thread runs and a newer request stops this one. Other encoders (SentencePiece: a piece after a
    line break would get a dummy prefix the whole text does not have) go through
    :func:`encode_overlapping`.
    """
    if len(text) < PIECES_FROM_CHARS:
        return encoder.encode(text, allow_special=allow_special), None
    if not getattr(encoder, "byte_level", False):
        return encode_overlapping(encoder, text, allow_special, is_stale, progress)
    spans = paragraph_spans(text, PIECE_CHARS)
    parts = []
    byte_at = 0
    reported = time.monotonic()
    for k, (a, b) in enumerate(spans):
        if is_stale():
            return None, None
        piece = text[a:b]
        parts.append((encoder.encode(piece, allow_special=allow_special), a, byte_at))
        byte_at += len(piece.encode("utf-8"))
        if time.monotonic() - reported >= PROGRESS_S:
            reported = time.monotonic()
            progress(k + 1, len(spans))
    encoding = Encoding.concat(getattr(encoder, "name", str(encoder)), text, parts)
    _let_go(parts)
    return encoding, None


def _let_go(items: list) -> None:
    """Free ``items`` one at a time: a list of thousands of piece Encodings (millions of tokens, their
    raw forms) freed in one go holds the GIL for ~0.1 s, and the GUI thread waits."""
    while items:
        items.pop()


def encode_overlapping(encoder, text: str, allow_special: bool, is_stale=lambda: False,
                       progress=lambda done, total: None) -> tuple[Encoding | None, bool | None]:
    """``encoder.encode(text)`` by overlapping windows of about PIECE_CHARS characters, for encoders
    whose tokens near a window's edge depend on what lies beyond it (SentencePiece's dummy prefix, a
    word cut in two). Two neighbouring windows overlap by OVERLAP_CHARS; they are joined at a token
    boundary inside the overlap where both windows agree on the next AGREE_TOKENS tokens (ids and
    spans), so each token kept was made with text on both sides of it. When no such place exists the
    whole text is encoded at once. Returns the Encoding (None when the request went stale on the way)
    and whether its token bytes join to the text (None: not known, ask the Encoding). The joined
    Encoding has no ``normalized_text`` (the Inspector does not show it; normalizing 20 MB is one more
    long call).
    """
    n = len(text)
    kept: list[tuple[Encoding, int, int, int]] = []  # (window's encoding, its byte offset, first, end token)
    a = a_byte = keep = 0
    prev: tuple[Encoding, int, int] | None = None  # the window before: encoding, byte offset, byte end
    reported = time.monotonic()
    while True:
        if is_stale():
            return None, None
        b = min(n, a + PIECE_CHARS)
        window = text[a:b]
        enc = encoder.encode(window, allow_special=allow_special)
        end_byte = a_byte + len(window.encode("utf-8"))
        if prev is not None:
            joint = _agreeing_boundary(prev[0], prev[1], enc, a_byte, prev[2])
            if joint is None or joint[0] < keep:
                return encoder.encode(text, allow_special=allow_special), None
            kept.append((prev[0], prev[1], keep, joint[0]))
            keep = joint[1]
        if b >= n:
            kept.append((enc, a_byte, keep, len(enc)))
            break
        prev = (enc, a_byte, end_byte)
        a = b - OVERLAP_CHARS
        a_byte = end_byte - len(text[a:b].encode("utf-8"))
        if time.monotonic() - reported >= PROGRESS_S:
            reported = time.monotonic()
            progress(b, n)
    joined = _joined(getattr(encoder, "name", str(encoder)), text, kept)
    del prev, enc  # kept holds them too: freed with it, one window at a time
    _let_go(kept)
    return joined


def _agreeing_boundary(left: Encoding, left_off: int, right: Encoding, right_off: int,
                       left_end: int) -> tuple[int, int] | None:
    """(i, j): token i of ``left`` and token j of ``right`` start at the same byte of the text and
    the AGREE_TOKENS tokens from there are the same in both; the place nearest the middle of the
    overlap ``[right_off, left_end)`` wins. None when the windows never agree there."""
    ls = left.byte_start_array + left_off
    rs = right.byte_start_array + right_off
    inside = (ls > right_off) & (ls < left_end)
    common = np.intersect1d(ls[inside], rs[(rs > right_off) & (rs < left_end)])
    middle = (right_off + left_end) / 2
    for x in sorted(common.tolist(), key=lambda x: abs(x - middle)):
        i, j = int(np.searchsorted(ls, x)), int(np.searchsorted(rs, x))
        k = AGREE_TOKENS
        if i + k > len(ls) or j + k > len(rs):
            continue
        if (np.array_equal(left.id_array[i:i + k], right.id_array[j:j + k])
                and np.array_equal(ls[i:i + k], rs[j:j + k])
                and np.array_equal(left.byte_end_array[i:i + k] + left_off, right.byte_end_array[j:j + k] + right_off)
                and int(left.byte_end_array[i + k - 1]) + left_off <= left_end):
            return i, j
    return None


def _joined(name: str, text: str, kept: list[tuple[Encoding, int, int, int]]) -> tuple[Encoding, bool]:
    """One Encoding of ``text`` from the kept token ranges of its windows (see encode_overlapping), and
    whether its token bytes join to the text's UTF-8. Token bytes are joined a window at a time: one
    join (or one length count) over ten million pieces held the GIL for most of a second."""
    ids, starts, ends, kinds, blobs, lengths, raw_index = [], [], [], [], [], [], []
    raw_code: dict[str, int] = {}  # the raw forms' table, as (table, index) columns: no list of them all
    for enc, off, i, j in kept:
        ids.append(enc.id_array[i:j])
        starts.append(enc.byte_start_array[i:j] + off)
        ends.append(enc.byte_end_array[i:j] + off)
        kinds.append(enc.kind_array[i:j])
        # the window's own columns, read directly: a Token object per token made this four times slower
        b0, b1 = enc._blob_start[i:j], enc._blob_end[i:j]
        n = b1 - b0
        where = np.arange(int(n.sum()), dtype=np.int64) + np.repeat(b0 - (np.cumsum(n) - n), n)
        blobs.append(np.frombuffer(enc._blob, dtype=np.uint8)[where].tobytes())
        lengths.append(n)
        if enc._raw_index is None:
            raw_index.append(np.full(j - i, -1, dtype=np.int32))
        else:
            # the window's table of raw forms renumbered into the joined one (-1, no raw form, stays -1)
            codes = [raw_code.setdefault(r, len(raw_code)) if r is not None else -1 for r in enc._raw_table]
            raw_index.append(np.array(codes + [-1], dtype=np.int32)[enc._raw_index[i:j]])
    blob = b"".join(blobs)
    data = text.encode("utf-8")
    blob_ends = np.cumsum(np.concatenate(lengths))
    encoding = Encoding.from_arrays(
        name, text, np.concatenate(ids), np.concatenate(starts), np.concatenate(ends), kinds=np.concatenate(kinds),
        token_bytes=(blob, blob_ends - np.concatenate(lengths), blob_ends),
        raws=(tuple(raw_code), np.concatenate(raw_index)) if raw_code else None, data=data,
    )
    return encoding, blob == data


def encode_text(registry, request: EncodeRequest, is_stale=lambda: False,
                progress=lambda done, total: None) -> EncodeResult | None:
    """The encoder call of ``request``: the Encoding, its metrics and lookup tables.

    Returns None when the request went stale on the way (a newer one is waiting). ``progress(done,
    total)`` hears of each piece of a big text (see :func:`encode_in_pieces`).
    """
    t0 = time.perf_counter()
    out = EncodeResult(request)
    try:
        encoder = registry.get(request.encoder)
        text = request.text
        if request.normalization != "none":
            text = unicodedata.normalize(request.normalization, text)
        round_trip = None
        if request.chat is not None:
            out.chat = request.chat.build(encoder, is_stale)  # a newer request stops the template's render
            encoding = out.chat.prompt.encoding
        else:
            encoding, round_trip = _encode_pieces(encoder, text, request.allow_special, is_stale, progress)
        if encoding is None or is_stale():
            return None
        out.special_tokens = list(encoder.special_tokens())
        if request.normalization != "none" and request.chat is None:
            before, _ = _encode_pieces(encoder, request.text, request.allow_special, is_stale)
            if before is None:
                return None
            out.unnormalized_tokens = len(before)
    except TokvizError as err:
        out.error = message_of(err)  # core's sentence kept: the panel shows it in the interface's language
        return out
    except BaseException as err:  # a third-party model may fail in ways we cannot list (a Rust panic too)
        if is_interrupt(err):
            raise
        out.error = QCoreApplication.translate(
            "InspectPanel", "{encoder} could not encode this text: {kind}: {err}"
        ).format(encoder=request.encoder, kind=type(err).__name__, err=err)
        return out
    if is_stale():
        return None
    out.encoding = encoding
    # Build the Encoding's lookup tables here, not on the GUI thread's first click (a 5 MB text
    # has millions of tokens).
    encoding.token_at_byte(0)
    encoding.tokens_at_char(0)
    # a round trip already known is passed as the text it gives back (joining ten million token bytes
    # again in one numpy call would hold the GIL for a third of a second)
    out.metrics = measure(encoding, None if round_trip is None else (encoding.text if round_trip else ""))
    out.seconds = time.perf_counter() - t0
    return out


def lay_out(result: EncodeResult, is_stale=lambda: False) -> EncodeResult | None:
    """Fill in the drawing of ``result.encoding`` for ``result.request``'s colours, fonts and width.

    Cells and colours are made once per Encoding and reused when only the fonts or the width changed
    (``result.cells`` already filled); widths are measured and the cells wrapped again.
    """
    t0 = time.perf_counter()
    request, encoding = result.request, result.encoding
    if encoding is None:
        return result
    if not result.cells and len(encoding.tokens):
        result.cells = token_cells(encoding, MAX_DRAWN_TOKENS)
        result.marks = token_marks(encoding.id_array[:MAX_DRAWN_TOKENS].tolist())
    if is_stale():
        return None
    if len(result.colors) != len(result.cells):  # relaid() empties them for a new theme
        result.colors = token_colors(encoding.id_array[: len(result.cells)].tolist(), dark=request.dark)
    result.widths = result.layout = None
    if request.fonts is not None:
        measure_cells = CellMeasure(*request.fonts)
        result.widths = (measure_cells.widths(result.cells), measure_cells.id_widths(result.cells, encoding))
        if is_stale():
            return None
        if request.view_width > 0:
            result.layout = wrap_cells(result.cells, result.widths[request.view_mode == "ids"], request.view_width,
                                       request.view_mode)
    result.seconds += time.perf_counter() - t0
    return result


def encode_for_view(registry, request: EncodeRequest, is_stale=lambda: False,
                    progress=lambda done, total: None) -> EncodeResult | None:
    """Encode, measure and prepare the drawing of ``request`` (runs in the worker thread).

    Returns None when the request went stale on the way (a newer one is waiting). A big text is
    built with garbage collection paused (see :meth:`~tokviz.ui.common.collection.GarbageCollection.paused`).
    """
    with WorkService.collection.paused() if len(request.text) >= PAUSE_COLLECTION_CHARS else nullcontext():
        result = encode_text(registry, request, is_stale, progress)
        if result is None or result.error is not None:
            return result
        return lay_out(result, is_stale)


def relaid(result: EncodeResult, generation: int, *, fonts: tuple, view_width: int, view_mode: str,
           dark: bool) -> EncodeResult:
    """A copy of ``result`` to lay out again for new fonts, width or mode: same Encoding, metrics and
    cells (no encoder call), a new request generation."""
    request = dataclasses.replace(result.request, generation=generation, fonts=fonts, view_width=view_width,
                                  view_mode=view_mode, dark=dark)
    return dataclasses.replace(result, request=request, widths=None, layout=None, seconds=0.0,
                               colors=result.colors if dark == result.request.dark else [])


def open_model(path: str):
    """Load a model file (parsing a 100k-rank file takes a second or more): (encoder, "") or
    (None, a message saying why not)."""
    try:
        from tokviz.core.encoders.builtin import open_model_file

        return open_model_file(path), ""
    except ImportError:
        return None, QCoreApplication.translate("InspectPanel", "Opening model files is not available in this build.")
    except TokvizError as err:
        return None, str(err)
    except BaseException as err:  # a file we cannot list every way of being broken (a Rust panic too)
        if is_interrupt(err):
            raise
        return None, QCoreApplication.translate(
            "InspectPanel", "{path}: not a model tokviz can read ({kind}: {err})"
        ).format(path=path, kind=type(err).__name__, err=err)
