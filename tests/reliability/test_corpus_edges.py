"""Corpus edge cases through the core trainers (BPE both modes, WordPiece, Unigram) and ``tokviz train``.

Empty, whitespace-only, lone surrogates, NUL, one character, a combining stack: a CorpusError (a clear
message) or a finished model, never another exception. A FIFO, a device or a folder as the corpus is
refused with a message instead of waiting forever. Invalid UTF-8 stops with the line number (or is
replaced on request). A 50 MB line trains to the end, and a 50 MB line without a single space can be
cancelled with Ctrl-C while it is read (each subprocess runs under a generous hang guard).
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import threading
from pathlib import Path

import pytest

from tokviz.cli import main
from tokviz.core.bpe.corpus import read_corpus, read_corpus_blocks
from tokviz.core.bpe.events import TrainerConfig
from tokviz.core.bpe.trainer import BPETrainer
from tokviz.core.errors import CorpusError, TokvizError
from tokviz.core.training import Finished
from tokviz.core.unigram.trainer import UnigramConfig, UnigramTrainer
from tokviz.core.wordpiece.trainer import WordPieceConfig, WordPieceTrainer

ROOT = Path(__file__).resolve().parents[2]
GUARD = 300  # seconds: bounds a hang, times nothing

TRAINERS = {
    "bpe-byte": lambda: BPETrainer(TrainerConfig(mode="byte", merges=10, min_frequency=1)),
    "bpe-char": lambda: BPETrainer(TrainerConfig(mode="char", merges=10, min_frequency=1)),
    "wordpiece": lambda: WordPieceTrainer(WordPieceConfig(vocab_size=100)),
    "unigram": lambda: UnigramTrainer(UnigramConfig(vocab_size=100)),
}
CLI_ALGORITHMS = {
    "bpe-byte": ["--algorithm", "bpe", "--mode", "byte", "--merges", "10"],
    "bpe-char": ["--algorithm", "bpe", "--mode", "char", "--merges", "10"],
    "wordpiece": ["--algorithm", "wordpiece", "--vocab-size", "200"],
    "unigram": ["--algorithm", "unigram", "--vocab-size", "100"],
}

NO_WORDS = {"empty": [], "empty-line": [""], "newlines": ["\n"] * 5,
            "whitespace": [" \n", "\t\n", "\u3000\u00a0\u2028\n", "\r\n"]}
TRAINABLE = {"nul": ["\x00\x00 \x00\n"], "one-character": ["a"], "one-emoji": ["😀"],
             "combining-500": ["e" + "\u0301" * 500 + " 가\n"], "bidi": ["\u202eabc\u202d 안녕 \u2066x\u2069\n"] * 3,
             "no-final-newline": ["안녕 hello", " 안녕"]}


@pytest.mark.parametrize("case", list(NO_WORDS))
@pytest.mark.parametrize("algorithm", list(TRAINERS))
def test_a_corpus_without_words_is_a_clear_message(algorithm, case):
    with pytest.raises(CorpusError, match="no words"):
        list(TRAINERS[algorithm]().run(NO_WORDS[case]))


@pytest.mark.parametrize("algorithm", list(TRAINERS))
def test_a_lone_surrogate_in_the_corpus_is_a_clear_message(algorithm):
    with pytest.raises(CorpusError, match="lone surrogate U\\+D800"):
        list(TRAINERS[algorithm]().run(["안녕 hello\n", "a\ud800b\n"]))


@pytest.mark.parametrize("case", list(TRAINABLE))
@pytest.mark.parametrize("algorithm", list(TRAINERS))
def test_odd_but_valid_corpora_train_to_a_model_that_encodes_them(algorithm, case):
    trainer = TRAINERS[algorithm]()
    events = list(trainer.run(TRAINABLE[case]))
    assert isinstance(events[-1], Finished) and events[-1].reason in ("merges", "exhausted", "min_frequency")
    model = trainer.model()
    for line in TRAINABLE[case]:
        enc = model.encode(line)
        assert all(0 <= t.start <= t.end <= len(line) for t in enc.tokens)


# ---- what is not a regular file ------------------------------------------------------------------
def _guarded(fn):
    """fn() in a thread; its exception, or None. A hang fails the test instead of blocking it."""
    out: dict = {}

    def work():
        try:
            fn()
            out["error"] = None
        except BaseException as err:  # noqa: BLE001 - handed to the test
            out["error"] = err

    t = threading.Thread(target=work, daemon=True)
    t.start()
    t.join(60)
    assert not t.is_alive(), "reading the corpus hung"
    return out["error"]


@pytest.fixture
def fifo(tmp_path):
    if not hasattr(os, "mkfifo"):
        pytest.skip("no FIFOs here")
    path = tmp_path / "corpus.fifo"
    os.mkfifo(path)
    yield path
    # a reader that did wait would be released by a writer
    fd = os.open(path, os.O_RDWR | os.O_NONBLOCK)
    os.close(fd)


@pytest.mark.parametrize("reader", [read_corpus, read_corpus_blocks])
def test_a_fifo_a_folder_and_a_device_are_refused(tmp_path, fifo, reader):
    for path, what in ((fifo, "FIFO"), (tmp_path, "folder"), (Path(os.devnull), "device")):
        err = _guarded(lambda p=path: list(reader(p)))
        assert isinstance(err, CorpusError) and what in str(err), (path, err)


def _train_cli(args: list[str], **kw) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "tokviz", "train", "-q", *args], capture_output=True, text=True,
                          cwd=ROOT, timeout=GUARD, **kw)


def _train_in_process(args: list[str], capsys) -> subprocess.CompletedProcess:
    """``tokviz train -q`` run by its main() here, for checks of its messages and exit status only;
    what needs a real process (a FIFO that could block, Ctrl-C, a memory limit) keeps one."""
    code = main(["train", "-q", *args])
    out, err = capsys.readouterr()
    return subprocess.CompletedProcess(args, code, out, err)


def _assert_message(result: subprocess.CompletedProcess, *needles: str) -> None:
    assert result.returncode == 2, (result.returncode, result.stderr[-2000:])
    assert "Traceback" not in result.stderr and result.stderr.startswith("tokviz: "), result.stderr[-2000:]
    for needle in needles:
        assert needle in result.stderr, result.stderr


@pytest.mark.parametrize("algorithm", ["bpe-byte", "unigram"])
def test_cli_refuses_a_fifo_and_a_folder(tmp_path, fifo, algorithm, capsys):
    _assert_message(_train_cli([*CLI_ALGORITHMS[algorithm], str(fifo)]), "FIFO")  # could block: a real process
    _assert_message(_train_in_process([*CLI_ALGORITHMS[algorithm], str(tmp_path)], capsys), "folder")


@pytest.mark.parametrize("algorithm", list(CLI_ALGORITHMS))
def test_cli_empty_whitespace_and_invalid_utf8_corpora(tmp_path, capsys, algorithm):
    args = CLI_ALGORITHMS[algorithm]
    empty = tmp_path / "empty.txt"
    empty.write_bytes(b"")
    _assert_message(_train_in_process([*args, str(empty)], capsys), "no words")
    blank = tmp_path / "blank.txt"
    blank.write_text(" \n\t\n\u3000\n" * 100, encoding="utf-8")
    _assert_message(_train_in_process([*args, str(blank)], capsys), "no words")
    broken = tmp_path / "broken.txt"
    broken.write_bytes("안녕하세요 hello world\n".encode() * 50 + b"caf\xe9 \xed\xa0\x80 ok\n" + b"more words\n" * 50)
    _assert_message(_train_in_process([*args, str(broken)], capsys), "line 51")
    replaced = _train_in_process([*args, "--errors", "replace", str(broken)], capsys)
    assert replaced.returncode == 0, replaced.stderr[-2000:]


# ---- a 50 MB line ----------------------------------------------------------------------------------
@pytest.fixture(scope="module")
def line_50mb(tmp_path_factory):
    """One line with spaces (words) of 12 MB, and one without any (one enormous word) of 50 MB.

    12 MB is twelve of the reader's 1 MiB blocks, so the spaced line is read in parts and cut into
    pieces as a 50 MB one is, at a quarter of the counting time for each of the four algorithms; the
    solid line stays at 50 MB so that Ctrl-C lands while it is still being read."""
    folder = tmp_path_factory.mktemp("huge")
    words = "안녕하세요 hello world 😀 토크나이저 tokens "
    spaced = folder / "spaced.txt"
    spaced.write_text(words * (12_000_000 // len(words.encode()) + 1), encoding="utf-8")
    solid = folder / "solid.txt"
    syllables = "".join(chr(0xAC00 + (i * 7919) % 50) for i in range(4099))  # no period, no space
    solid.write_text(syllables * (50_000_000 // len(syllables.encode()) + 1), encoding="utf-8")
    return spaced, solid


@pytest.mark.slow
@pytest.mark.parametrize("algorithm", list(CLI_ALGORITHMS))
def test_a_line_of_many_megabytes_with_words_trains_to_the_end(line_50mb, algorithm):
    result = _train_cli([*CLI_ALGORITHMS[algorithm], str(line_50mb[0])])
    assert result.returncode == 0, result.stderr[-2000:]
    assert "vocabulary" in result.stdout


@pytest.mark.slow
@pytest.mark.parametrize("algorithm", list(CLI_ALGORITHMS))
def test_a_50mb_line_without_a_space_can_be_cancelled_while_it_is_read(line_50mb, algorithm):
    proc = subprocess.Popen([sys.executable, "-m", "tokviz", "train", *CLI_ALGORITHMS[algorithm], str(line_50mb[1])],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, cwd=ROOT,
                            env={**os.environ, "PYTHONUNBUFFERED": "1"})
    try:
        seen = b""
        while b"counting" not in seen:  # the progress bar is up: the corpus is being read
            chunk = proc.stderr.read1(4096)
            assert chunk, f"exited before any progress: {proc.wait()} {seen[-2000:]!r}"
            seen += chunk
        proc.send_signal(signal.SIGINT)  # what Ctrl-C does
        out, err = proc.communicate(timeout=GUARD)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    err_text = (seen + err).decode("utf-8", "replace")
    assert "Traceback" not in err_text, err_text[-3000:]
    if proc.returncode == 130:
        assert "training cancelled" in err_text and "nothing was written" in err_text
    else:  # the run was already done: finishing is fine too
        assert proc.returncode == 0, err_text[-3000:]


def test_cancel_while_reading_keeps_the_trainers_contract():
    """Cancelled in the counting phase: Finished("cancelled"), no exception, for every algorithm."""
    for name, make in TRAINERS.items():
        lines = ["안녕하세요 hello world\n"] * 200_000
        events = list(make().run(lines, cancel=lambda: True))
        assert isinstance(events[-1], Finished) and events[-1].reason == "cancelled", name
        assert not any(isinstance(e, TokvizError) for e in events)


# ---- words too long to train on ----------------------------------------------------------------------
def test_unigram_skips_words_longer_than_sentencepiece_would_keep():
    long_word = "가" * 2000  # 6,000 bytes: SentencePiece skips any sentence holding it
    trainer = UnigramTrainer(UnigramConfig(vocab_size=60))
    events = list(trainer.run(["안녕하세요 hello world\n"] * 20 + [long_word + " 안녕\n"]))
    assert isinstance(events[-1], Finished) and events[-1].reason == "merges"
    assert trainer.model().settings["skipped_long_words"] == 1
    with pytest.raises(CorpusError, match="longer than 4,192 bytes"):
        list(UnigramTrainer(UnigramConfig(vocab_size=60)).run([long_word + "\n", long_word + "나\n"]))


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="limits the child's memory with setrlimit")
def test_a_5mb_word_is_a_message_under_a_memory_limit_not_a_memory_error(tmp_path):
    """Unigram's seed substrings of a 5 MB one-word line took over 2 GB (a MemoryError traceback
    under a limit, 18 GB for 50 MB without one)."""
    import resource

    corpus = tmp_path / "one-word.txt"
    corpus.write_text("".join(chr(0xAC00 + (i * 7919) % 50) for i in range(1_700_000)), encoding="utf-8")

    def limit():
        resource.setrlimit(resource.RLIMIT_AS, (1 << 31, 1 << 31))

    result = subprocess.run([sys.executable, "-m", "tokviz", "train", "-q", *CLI_ALGORITHMS["unigram"], str(corpus)],
                            capture_output=True, text=True, cwd=ROOT, timeout=GUARD, preexec_fn=limit)
    _assert_message(result, "longer than 4,192 bytes")
