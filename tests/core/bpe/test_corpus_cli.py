"""Reading corpora (strict UTF-8 with line numbers, replace on request) and `tokviz train`."""

from __future__ import annotations

import json

import pytest

from tokviz.cli import main
from tokviz.core.bpe.corpus import read_corpus
from tokviz.core.errors import CorpusError


def test_read_corpus_streams_lines_with_newlines(tmp_path):
    p = tmp_path / "c.txt"
    p.write_bytes("\ufeff첫 줄\n둘째\r\n마지막".encode())
    assert list(read_corpus(p)) == ["첫 줄\n", "둘째\r\n", "마지막"]


def test_invalid_utf8_names_line_and_byte(tmp_path):
    p = tmp_path / "bad.txt"
    p.write_bytes("좋아\n".encode() * 3 + b"ab\xed\xa0\x80cd\n")
    with pytest.raises(CorpusError, match=r"line 4 is not valid UTF-8 \(byte 0xED at byte offset 2.*replace"):
        list(read_corpus(p))
    assert list(read_corpus(p, errors="replace"))[-1].startswith("ab\ufffd")


def test_missing_and_folder(tmp_path):
    with pytest.raises(CorpusError, match="no such file"):
        read_corpus(tmp_path / "nope.txt")
    with pytest.raises(CorpusError, match="folder"):
        read_corpus(tmp_path)


def test_cli_train_exports_and_summary(tmp_path, capsys):
    corpus = tmp_path / "k.txt"
    corpus.write_text("영화 정말 재밌다\n영화 최고 재밌다\n정말 최고\n" * 20, encoding="utf-8")
    out = tmp_path / "m.json"
    rc = main(["train", str(corpus), "--mode", "char", "--merges", "4", "-q", "--export", "tokviz", str(out)])
    assert rc == 0
    printed = capsys.readouterr().out
    assert "merges        4 of 4 (done)" in printed and str(out) in printed
    assert json.loads(out.read_text(encoding="utf-8"))["mode"] == "char"
    rc = main(["encode", "--model", str(out), "--json", "영화 재밌다"])
    assert rc == 0
    assert json.loads(capsys.readouterr().out)


@pytest.mark.parametrize(
    "args, message",
    [
        (["--mode", "char", "--export", "tiktoken", "x"], "needs --mode byte"),
        (["--export", "zip", "x"], "unknown export format"),
    ],
)
def test_cli_bad_options_exit_2(tmp_path, capsys, args, message):
    corpus = tmp_path / "k.txt"
    corpus.write_text("a b\n", encoding="utf-8")
    assert main(["train", str(corpus), *args]) == 2
    assert message in capsys.readouterr().err


def test_cli_bad_corpus_exit_2_without_traceback(tmp_path, capsys):
    bad = tmp_path / "bad.txt"
    bad.write_bytes(b"ok\n\xffoops\n")
    assert main(["train", str(bad), "-q"]) == 2
    err = capsys.readouterr().err
    assert "line 2" in err and "--errors replace" in err and "Traceback" not in err
    empty = tmp_path / "empty.txt"
    empty.write_text(" \n\n", encoding="utf-8")
    assert main(["train", str(empty), "-q"]) == 2
    assert "no words to train on" in capsys.readouterr().err
    assert main(["train", str(bad), "-q", "--errors", "replace", "--merges", "1", "--min-frequency", "1"]) == 0


def test_cli_ctrl_c_is_clean(tmp_path, capsys, monkeypatch):
    import signal

    corpus = tmp_path / "k.txt"
    corpus.write_text("abc abd abe\n" * 50, encoding="utf-8")
    from tokviz.core.bpe import trainer as trainer_module

    real_run = trainer_module.BPETrainer.run

    def run_then_interrupt(self, lines, **kw):
        for e in real_run(self, lines, **kw):
            yield e
            if getattr(e, "step", 0) == 2:
                signal.raise_signal(signal.SIGINT)  # what Ctrl-C does; the handler sets the cancel flag

    monkeypatch.setattr(trainer_module.BPETrainer, "run", run_then_interrupt)
    out = tmp_path / "never.json"
    rc = main(["train", str(corpus), "--mode", "char", "--merges", "50", "--min-frequency", "1", "-q",
               "--export", "tokviz", str(out)])
    assert rc == 130
    assert "cancelled after 2 merges" in capsys.readouterr().err
    assert not out.exists()


def test_blocks_equal_lines_and_name_the_line(tmp_path):
    from tokviz.core.bpe.corpus import read_corpus_blocks

    p = tmp_path / "c.txt"
    lines = [f"줄 {i} {'x' * (i % 17)}\n" for i in range(300)] + ["끝"]
    p.write_text("".join(lines), encoding="utf-8")
    blocks = list(read_corpus_blocks(p, block_bytes=64))
    assert len(blocks) > 10 and all(b.endswith("\n") for b in blocks[:-1])
    assert "".join(blocks) == "".join(read_corpus(p)) == "".join(lines)
    p.write_bytes("".join(lines[:200]).encode() + b"bad \xc3( here\n" + "".join(lines[200:]).encode())
    with pytest.raises(CorpusError, match=r"line 201 is not valid UTF-8 \(byte 0xC3 at byte offset 4"):
        list(read_corpus_blocks(p, block_bytes=64))
    assert "\ufffd" in "".join(read_corpus_blocks(p, errors="replace", block_bytes=64))


def test_cli_train_writes_its_exports_even_when_stdout_is_closed(tmp_path):
    """`tokviz train ... --export ... | head -1`: the pipe closes early, the model is still written."""
    import subprocess
    import sys

    corpus = tmp_path / "k.txt"
    corpus.write_text("영화 정말 재밌다\n영화 최고 재밌다\n정말 최고\n" * 20, encoding="utf-8")
    out = tmp_path / "m.json"
    proc = subprocess.Popen(
        [sys.executable, "-m", "tokviz", "train", str(corpus), "--merges", "5", "-q", "--export", "tokviz", str(out)],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE,
    )
    proc.stdout.close()  # the reader is gone before tokviz prints its summary
    _, err = proc.communicate(timeout=60)
    assert out.is_file() and json.loads(out.read_text(encoding="utf-8"))["merges"], err.decode()
    assert b"Traceback" not in err


def test_cli_hint_names_the_pattern_a_tiktoken_file_cannot_hold(tmp_path, capsys):
    corpus = tmp_path / "k.txt"
    corpus.write_text("영화 정말 재밌다\n영화 최고 재밌다\n정말 최고\n" * 20, encoding="utf-8")
    out = tmp_path / "m.tiktoken"
    rc = main(["train", str(corpus), "--pattern", "whitespace", "--merges", "5", "-q",
               "--export", "tiktoken", str(out)])
    assert rc == 0
    assert f"tokviz encode --model {out} --pattern whitespace" in capsys.readouterr().out


@pytest.mark.parametrize("reader", ["lines", "blocks"])
def test_a_very_long_line_streams_in_parts_cut_between_characters(tmp_path, monkeypatch, reader):
    """One line with no newline in it arrives in bounded parts (LinePart), never cut inside a
    character, and the parts join to the file; a bad byte far into the line is located exactly."""
    from tokviz.core.bpe import corpus as corpus_module
    from tokviz.core.bpe.corpus import LinePart, read_corpus_blocks

    monkeypatch.setattr(corpus_module, "LINE_PART_BYTES", 1000)
    text = "영화 정말 재밌다 👍🏽 " * 400 + "\n끝\n"
    p = tmp_path / "long.txt"
    p.write_bytes(text.encode("utf-8"))
    items = list(read_corpus(p)) if reader == "lines" else list(read_corpus_blocks(p, block_bytes=1000))
    assert "".join(items) == text
    parts = [i for i in items if isinstance(i, LinePart)]
    assert len(parts) >= 10 and all(len(i.encode("utf-8")) <= 1003 for i in items)
    assert not any(isinstance(i, LinePart) for i in items[-1:])  # the last item ends the line

    bad = tmp_path / "bad.txt"
    line = "가" * 2000  # 6000 bytes
    bad.write_bytes(b"ok\n" + line.encode("utf-8") + b"\xff" + b"tail\n")
    with pytest.raises(CorpusError, match=r"line 2 is not valid UTF-8 \(byte 0xFF at byte offset 6000 of the line"):
        list(read_corpus(bad)) if reader == "lines" else list(read_corpus_blocks(bad, block_bytes=1000))


def test_a_long_line_trains_like_the_whole_text_and_can_be_cancelled_while_counting(tmp_path, monkeypatch):
    from tokviz.core.bpe import corpus as corpus_module
    from tokviz.core.bpe.corpus import read_corpus_blocks
    from tokviz.core.bpe.events import MergeStep, TrainerConfig
    from tokviz.core.bpe.trainer import BPETrainer
    from tokviz.core.training import Finished

    monkeypatch.setattr(corpus_module, "LINE_PART_BYTES", 4096)
    text = " ".join(f"영화{i % 50} 정말{i % 7}" for i in range(20_000))  # ~250 KB, no newline
    p = tmp_path / "one-line.txt"
    p.write_text(text, encoding="utf-8")
    for mode in ("char", "byte"):
        config = TrainerConfig(mode=mode, merges=40, min_frequency=1)
        streamed = [e.new_piece for e in BPETrainer(config).run(read_corpus(p)) if isinstance(e, MergeStep)]
        whole = [e.new_piece for e in BPETrainer(config).run([text]) if isinstance(e, MergeStep)]
        assert streamed == whole and len(whole) == 40, mode
    # a cancel is noticed between the parts of the line, long before its end
    seen = []

    def blocks():
        for item in read_corpus_blocks(p, block_bytes=4096):
            seen.append(item)
            yield item

    events = list(BPETrainer(TrainerConfig(merges=5)).run(blocks(), cancel=lambda: len(seen) > 20))
    assert isinstance(events[-1], Finished) and events[-1].reason == "cancelled"
    assert sum(len(s) for s in seen) < len(text) / 2


@pytest.mark.parametrize("reader", ["lines", "blocks"])
def test_only_the_files_first_bom_is_dropped(tmp_path, monkeypatch, reader):
    """A BOM opens the file; one later in the text (a second file appended) is a character."""
    from tokviz.core.bpe import corpus as corpus_module
    from tokviz.core.bpe.corpus import read_corpus_blocks

    monkeypatch.setattr(corpus_module, "LINE_PART_BYTES", 4)  # the first part is exactly the BOM + 1
    p = tmp_path / "boms.txt"
    p.write_bytes(b"\xef\xbb\xbf\xef\xbb\xbfa\n\xef\xbb\xbfb\n")
    items = list(read_corpus(p)) if reader == "lines" else list(read_corpus_blocks(p, block_bytes=4))
    assert "".join(items) == "\ufeffa\n\ufeffb\n"


def test_a_long_line_without_any_safe_cut_is_counted_in_linear_time(monkeypatch):
    """CJK without spaces has no place to cut the counting buffer; it must not be re-joined and
    re-scanned for every new part (that was quadratic: 8 MB took 3 s, a gigabyte hours)."""
    from collections import Counter

    import regex

    from tokviz.core.bpe import counting
    from tokviz.core.bpe.corpus import LinePart
    from tokviz.core.bpe.events import TrainerConfig
    from tokviz.core.pretokenize import PATTERNS

    text = "漢字漢字，" * 40_000  # 200k characters, one line
    parts = [LinePart(text[i:i + 100]) for i in range(0, len(text), 100)]
    counts: Counter = Counter()
    scans = 0
    original = counting._safe_cuts

    def counting_cuts(t, *a, **k):
        nonlocal scans
        scans += 1
        return original(t, *a, **k)

    monkeypatch.setattr(counting, "_safe_cuts", counting_cuts)
    for _ in counting.count_corpus(TrainerConfig(merges=1), iter(parts), counts, lambda: False, None):
        pass
    assert counts == Counter(regex.findall(PATTERNS["gpt4"], text))
    # doubling: about log2(200k / 64k) + a few attempts, not one per 100-character part (2000)
    assert scans <= 8, scans
