"""The Inspector's work off the GUI thread, as plain functions a TaskRunner runs.

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

from PySide6.QtCore import QCoreApplication
from PySide6.QtGui import QColor

from tokviz.core.compare.paragraphs import paragraph_spans
from tokviz.core.encoding import Encoding
from tokviz.core.errors import TokvizError
from tokviz.core.metrics import Metrics, measure
from tokviz.ui.common.tasks import collection_paused, is_interrupt
from tokviz.ui.inspect.cells import MAX_DRAWN_TOKENS, Cell, CellLayout, CellMeasure, token_cells, wrap_cells
from tokviz.ui.token_colors import token_colors, token_marks

PAUSE_COLLECTION_CHARS = 100_000  # a text this long builds its result with garbage collection paused
PIECES_FROM_CHARS = 100_000  # a text this long is encoded a piece at a time (see encode_in_pieces)
PIECE_CHARS = 4_000  # a native encoder's call on this much text holds the GIL for tens of milliseconds
PROGRESS_S = 0.1  # how often a big text's encoding reports how far it got


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
    """``encoder.encode(text)``, a piece of about PIECE_CHARS characters at a time when that gives the
    same Encoding; None when the request went stale on the way.

    A native encoder (tokenizers, sentencepiece) holds the GIL for its whole call: on a 20 MB paste
    that froze the window for 17 s, and its intermediate objects took 7.9 GB. Pieces end where no
    byte-level encoder's token can cross (:func:`~tokviz.core.compare.safe_cut`, the paragraph
    cache's proof), so the stitched Encoding is exactly the whole-text one; between two pieces the GUI
    thread runs and a newer request stops this one. Other encoders are called on the whole text.
    """
    if not getattr(encoder, "byte_level", False) or len(text) < PIECES_FROM_CHARS:
        return encoder.encode(text, allow_special=allow_special)
    spans = paragraph_spans(text, PIECE_CHARS)
    parts = []
    byte_at = 0
    reported = time.monotonic()
    for k, (a, b) in enumerate(spans):
        if is_stale():
            return None
        piece = text[a:b]
        parts.append((encoder.encode(piece, allow_special=allow_special), a, byte_at))
        byte_at += len(piece.encode("utf-8"))
        if time.monotonic() - reported >= PROGRESS_S:
            reported = time.monotonic()
            progress(k + 1, len(spans))
    return Encoding.concat(getattr(encoder, "name", str(encoder)), text, parts)


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
        if request.chat is not None:
            out.chat = request.chat.build(encoder)
            encoding = out.chat.prompt.encoding
        else:
            encoding = encode_in_pieces(encoder, text, request.allow_special, is_stale, progress)
        if encoding is None or is_stale():
            return None
        out.special_tokens = list(encoder.special_tokens())
        if request.normalization != "none" and request.chat is None:
            out.unnormalized_tokens = len(encoder.encode(request.text, allow_special=request.allow_special).tokens)
    except TokvizError as err:
        out.error = str(err)
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
    out.metrics = measure(encoding)
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
    built with garbage collection paused (see :func:`~tokviz.ui.common.tasks.collection_paused`).
    """
    with collection_paused() if len(request.text) >= PAUSE_COLLECTION_CHARS else nullcontext():
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
        from tokviz.core.encoders.files import open_model_file

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
