"""Cross-lingual parity: what the same sentences cost in tokens in each language, per encoder.

A parallel corpus is a folder of ``LANG.txt`` files (``en.txt``, ``ko.txt`` ...) whose line N says
the same thing in every file; tokviz ships one (``resources/parallel``). The **premium** of a
language is its token count over the reference language's (Petrov et al. 2023, "Language Model
Tokenizers Introduce Unfairness Between Languages"): 1.0 costs the same as the reference, 2.0 twice
as many tokens for the same content. It is given for the whole corpus (total over total) and per line.

The files stream in lock-step, a row of translations at a time, so a corpus of any size runs in
bounded memory (per-line counts aside: ``per_line=False`` drops them). Long work takes a ``state``
with ``is_cancelled()`` and ``progress(done, total, result)`` as :mod:`tokviz.core.compare.corpus`
does, so a view runs it in a worker and tests call it directly. Each line's numbers are cached per
encoder object, so adding an encoder to a chart or switching the reference re-encodes nothing.

>>> import tempfile, pathlib
>>> d = pathlib.Path(tempfile.mkdtemp())
>>> _ = (d / "en.txt").write_text("a b\\nc\\n", encoding="utf-8")
>>> _ = (d / "xx.txt").write_text("a a b b\\nc c\\n", encoding="utf-8")
>>> from tokviz.core.encoders.builtin import default_registry
>>> r = measure_parity([default_registry().get("gpt2")], read_parallel_corpus(d))
>>> r.premium("gpt2", "xx"), r.line_premiums("gpt2", "xx")
(2.0, [2.0, 2.0])
"""

from __future__ import annotations

import codecs
import time
import weakref
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from tokviz.core.bpe.corpus import LinePart, read_corpus
from tokviz.core.compare.corpus import CompareState, NoState
from tokviz.core.compare.outcome import describe_failure
from tokviz.core.encoders.base import Encoder
from tokviz.core.errors import CorpusError
from tokviz.core.token_stats import TokenStats

DEFAULT_REFERENCE = "en"
# lines remembered per encoder: a parallel sample set fits many times over, a 100 MB corpus does not
LINE_CACHE_LIMIT = 20_000


# each language's name in itself, for chart labels that need no translation; other codes show as given
AUTONYMS = {
    "ar": "العربية", "de": "Deutsch", "en": "English", "es": "Español", "fr": "Français", "hi": "हिन्दी",
    "id": "Bahasa Indonesia", "it": "Italiano", "ja": "日本語", "ko": "한국어", "pt": "Português", "ru": "Русский",
    "th": "ไทย", "tr": "Türkçe", "uk": "Українська", "vi": "Tiếng Việt", "zh": "中文",
}


def language_name(code: str) -> str:
    """The language's own name for a file's code, or the code itself.

    >>> language_name("ko"), language_name("xx-YY")
    ('한국어', 'xx-YY')
    """
    return AUTONYMS.get(code, code)


@dataclass(frozen=True)
class ParallelCorpus:
    """The ``LANG.txt`` files of a folder, checked to have the same number of lines."""

    folder: Path
    languages: tuple[str, ...]
    lines: int
    total_bytes: int

    def path(self, language: str) -> Path:
        return self.folder / f"{language}.txt"

    def rows(self) -> Iterator[tuple[str, ...]]:
        """Line N of every file (in ``languages`` order), without the newline, one row at a time."""
        streams = [read_corpus(self.path(lang)) for lang in self.languages]
        for row in zip(*streams, strict=False):
            if any(isinstance(part, LinePart) for part in row):
                raise CorpusError(f"{self.folder}: a line is longer than a parallel sentence can be (1 MB)")
            yield tuple(line.rstrip("\r\n") for line in row)


def default_parallel_folder() -> Path:
    """The parallel sample sentences shipped with tokviz."""
    from tokviz.core.package_data import resources_dir

    return resources_dir() / "parallel"


def _count_lines(path: Path) -> tuple[int, int]:
    """(lines, bytes) of a file; a last line without a newline counts. Checks the UTF-8 on the way,
    so a bad file stops the run before any encoder starts."""
    lines = size = 0
    last = b"\n"
    decoder = codecs.getincrementaldecoder("utf-8")()
    try:
        with open(path, "rb") as f:
            while chunk := f.read(1 << 20):
                try:
                    decoder.decode(chunk)
                except UnicodeDecodeError as err:
                    line = lines + chunk.count(b"\n", 0, max(0, err.start)) + 1
                    raise CorpusError(f"{path}: line {line} is not valid UTF-8 ({err.reason}); "
                                      "save the file as UTF-8") from None
                lines += chunk.count(b"\n")
                size += len(chunk)
                last = chunk[-1:]
            decoder.decode(b"", final=True)
    except UnicodeDecodeError:
        raise CorpusError(f"{path}: the file ends inside a UTF-8 character; save it as UTF-8") from None
    except OSError as err:
        raise CorpusError(f"{path}: cannot read ({err.strerror or err})") from None
    return lines + (last != b"\n"), size


def read_parallel_corpus(folder: str | Path | None = None) -> ParallelCorpus:
    """The parallel corpus in ``folder`` (None: tokviz's own sample sentences).

    Raises CorpusError when the folder is missing, holds no ``LANG.txt``, or its files do not have
    the same number of lines (the message names the counts)."""
    path = default_parallel_folder() if folder is None else Path(folder)
    if not path.is_dir():
        raise CorpusError(f"{path}: no such folder (a parallel corpus is a folder of LANG.txt files)")
    files = sorted(p for p in path.glob("*.txt") if p.is_file())
    if not files:
        raise CorpusError(f"{path}: no LANG.txt files (e.g. en.txt, ko.txt, each with the same lines translated)")
    counts = {p.stem: _count_lines(p) for p in files}
    distinct = {n for n, _ in counts.values()}
    if len(distinct) > 1:
        listed = ", ".join(f"{lang} {n}" for lang, (n, _) in counts.items())
        raise CorpusError(f"{path}: the files must have the same number of lines (line N of each is the same "
                          f"sentence); they have: {listed}")
    lines = distinct.pop()
    if lines == 0:
        raise CorpusError(f"{path}: the files are empty")
    return ParallelCorpus(path, tuple(counts), lines, sum(b for _, b in counts.values()))


_line_cache: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()


def line_stats(encoder: Encoder, line: str) -> TokenStats:
    """The numbers of one line through ``encoder``, cached per encoder object (do not modify them).

    Raises what the encoder raises."""
    try:
        cache = _line_cache.setdefault(encoder, {})
    except TypeError:  # an encoder that cannot be weakly referenced is measured every time
        cache = {}
    stats = cache.get(line)
    if stats is None:
        stats = TokenStats()
        stats.add(encoder.encode(line))
        if len(cache) < LINE_CACHE_LIMIT:
            cache[line] = stats
    return stats


@dataclass
class ParityResult:
    """Per encoder and language: the totals, the tokens of each line, and any failure."""

    reference: str
    languages: tuple[str, ...]
    encoders: list[str]
    vocab_sizes: dict[str, int | None]
    stats: dict[tuple[str, str], TokenStats] = field(default_factory=dict)
    line_tokens: dict[tuple[str, str], list[int]] = field(default_factory=dict)
    errors: dict[str, str] = field(default_factory=dict)  # encoder -> why it was not measured
    lines: int = 0
    cancelled: bool = False
    seconds: float = 0.0

    def tokens(self, encoder: str, language: str) -> int:
        return self.stats[(encoder, language)].tokens

    def premium(self, encoder: str, language: str, reference: str | None = None) -> float | None:
        """Tokens of ``language`` over tokens of the reference (None when the reference has none)."""
        ref = self.tokens(encoder, reference or self.reference)
        return self.tokens(encoder, language) / ref if ref else None

    def line_premiums(self, encoder: str, language: str, reference: str | None = None) -> list[float | None]:
        """The premium of every line (None where the reference line has no tokens)."""
        ref = self.line_tokens.get((encoder, reference or self.reference), [])
        own = self.line_tokens.get((encoder, language), [])
        return [t / r if r else None for t, r in zip(own, ref, strict=False)]

    def rows(self) -> list[dict]:
        """One flat dict per (encoder, language): what a table or a CSV file shows."""
        out = []
        for name in self.encoders:
            if name in self.errors:
                continue
            for lang in self.languages:
                premium = self.premium(name, lang)
                out.append({"encoder": name, "language": lang,
                            "premium": None if premium is None else round(premium, 4),
                            **self.stats[(name, lang)].as_json(self.vocab_sizes.get(name))})
        return out

    def as_json(self) -> dict:
        """``{"reference", "languages", "lines", "encoders": {NAME: {LANG: {"tokens", "premium", ...,
        "line_tokens", "line_premium"}} or {"error": ...}}}``."""
        encoders: dict[str, dict] = {}
        for name in self.encoders:
            if name in self.errors:
                encoders[name] = {"error": self.errors[name]}
                continue
            per_lang = {}
            for row in self.rows():
                if row["encoder"] != name:
                    continue
                entry = {k: v for k, v in row.items() if k not in ("encoder", "language")}
                if (name, row["language"]) in self.line_tokens:
                    entry["line_tokens"] = self.line_tokens[(name, row["language"])]
                    entry["line_premium"] = [None if p is None else round(p, 4)
                                             for p in self.line_premiums(name, row["language"])]
                per_lang[row["language"]] = entry
            encoders[name] = per_lang
        return {"reference": self.reference, "languages": list(self.languages),
                "language_names": {lang: language_name(lang) for lang in self.languages}, "lines": self.lines,
                "cancelled": self.cancelled, "encoders": encoders}


def _vocab_size(encoder: Encoder) -> int | None:
    try:
        return int(encoder.vocab_size)
    except Exception:  # noqa: BLE001 - a size is a label here; an encoder without one still measures
        return None


def _new_result(encoders: Sequence[Encoder], corpus: ParallelCorpus, reference: str | None,
                per_line: bool) -> ParityResult:
    ref = reference or (DEFAULT_REFERENCE if DEFAULT_REFERENCE in corpus.languages else corpus.languages[0])
    if ref not in corpus.languages:
        raise CorpusError(f"no {ref}.txt in {corpus.folder} for the reference language "
                          f"(languages: {', '.join(corpus.languages)})")
    names = [e.name for e in encoders]
    if len(set(names)) != len(names):
        raise CorpusError("an encoder is named twice; give each once")
    result = ParityResult(ref, corpus.languages, names, {e.name: _vocab_size(e) for e in encoders})
    for name in names:
        for lang in corpus.languages:
            result.stats[(name, lang)] = TokenStats()
            if per_line:
                result.line_tokens[(name, lang)] = []
    return result


def measure_parity(
    encoders: Sequence[Encoder],
    corpus: ParallelCorpus,
    state: CompareState | None = None,
    *,
    reference: str | None = None,
    per_line: bool = True,
    report_every: float = 0.05,
) -> ParityResult:
    """Every encoder over every line of every language of ``corpus``.

    ``reference`` defaults to ``en`` (else the first language). ``state.progress(done, total,
    result)`` gets bytes read of all files, at most every ``report_every`` seconds and once at the
    end; ``state.is_cancelled()`` is checked between rows and a cancelled run returns the rows so far
    with ``cancelled=True``. An encoder that fails on a line gets an error entry and is dropped; the
    others go on. Raises CorpusError for a bad corpus or reference.
    """
    state = state or NoState()
    started = last = time.perf_counter()
    result = _new_result(encoders, corpus, reference, per_line)
    live = list(encoders)
    done = 0
    for row in corpus.rows():
        if state.is_cancelled():
            result.cancelled = True
            break
        for enc in list(live):
            try:
                measured = [line_stats(enc, line) for line in row]
            except Exception as err:  # noqa: BLE001 - reported in its own entry, the others go on
                result.errors[enc.name] = f"line {result.lines + 1}: {describe_failure(err)}"
                live.remove(enc)
                continue
            for lang, stats in zip(corpus.languages, measured, strict=True):
                result.stats[(enc.name, lang)].merge(stats)
                if per_line:
                    result.line_tokens[(enc.name, lang)].append(stats.tokens)
        result.lines += 1
        done += sum(len(line.encode("utf-8")) + 1 for line in row)
        now = time.perf_counter()
        if now - last >= report_every:
            last = now
            state.progress(min(done, corpus.total_bytes), corpus.total_bytes, result)
    result.seconds = time.perf_counter() - started
    state.progress(min(done, corpus.total_bytes), corpus.total_bytes, result)
    return result
