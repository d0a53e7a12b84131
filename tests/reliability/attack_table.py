"""Print the attack kinds the reliability suite covers, with how many test cases each has.

    python tests/reliability/attack_table.py

It collects tests/reliability with pytest (nothing runs) and counts the collected cases per attack
kind; a hypothesis test counts once (it tries many examples).
"""

from __future__ import annotations

import subprocess
import sys
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

# (test module, start of the test function's name) -> attack kind; the first match wins
KINDS = [
    ("test_hostile_model_files", "", "hostile / corrupt / truncated model files (every format)"),
    ("test_kill_during_export", "test_kill_9_at_every_point_of_an_export", "kill -9 during an export over old files"),
    ("test_kill_during_export", "test_kill_9_at_every_point_of_a_first", "kill -9 during a first export"),
    ("test_kill_during_export", "", "kill -9 between the GPT-2 pair's renames, then load"),
    ("test_hostile_folders", "test_opening_a_folder", "planted commit journal, model opened (way x path kind)"),
    ("test_hostile_folders", "test_a_gpt2_export_into", "planted commit journal, GPT-2 export into the folder"),
    ("test_hostile_folders", "test_a_pair_whose", "GPT-2 merges.txt beside another export's vocab.json"),
    ("test_hostile_folders", "test_a_failed_write", "failed write (writer x read-only/denied/rename/full)"),
    ("test_hostile_folders", "test_a_target_that", "impossible target (writer x folder/too long/file in path)"),
    ("test_hostile_folders", "test_a_255_byte", "255-byte file name (writer)"),
    ("test_hostile_folders", "test_train_export", "tokviz train --export failure (format x case) + controls"),
    ("test_hostile_folders", "", "export failures: GPT-2 pair, screenshot -o DIR, GUI messages"),
    ("test_template_bombs", "test_a_bomb", "chat template bomb (big int, widths, doubling, output) refused"),
    ("test_template_bombs", "test_sandbox", "chat template sandbox escape"),
    ("test_template_bombs", "test_cli", "chat template bomb / oversized file through tokviz chat"),
    ("test_template_bombs", "", "chat template: kill, memory cap, cancel, Ctrl-C, GUI newer request / close"),
    ("test_model_bombs", "test_a_regex", "panicking tokenizer.json regex (Split / Replace)"),
    ("test_model_bombs", "test_the_normalizer", "panicking tokenizer.json regex (Split / Replace)"),
    ("test_model_bombs", "test_compare", "panicking encoder in compare (API + CLI)"),
    ("test_model_bombs", "test_the_cli_prints", "panicking encoder in compare (API + CLI)"),
    ("test_model_bombs", "test_merges_naming", "merges naming missing tokens (no Rust text)"),
    ("test_model_bombs", "test_a_model_without", "WordPiece / WordLevel tokenizer.json without [UNK]"),
    ("test_model_bombs", "test_a_tekken_pattern", "tekken pattern matching the empty string"),
    ("test_model_bombs", "test_announced_sizes", "announced sizes (charsmap trie, 10^6 tekken specials) under a cap"),
    ("test_model_bombs", "test_a_gguf", "GGUF bombs (empty / repeated tokens, strings, arrays)"),
    ("test_model_bombs", "test_ctrl_c", "Ctrl-C during a slow native regex"),
    ("test_model_bombs", "", "oversized files read only when needed (600 MB json, tekken, rank, template, config)"),
    ("test_gui_hostile_work", "test_a_task", "panic in a background task / encoder (Inspect, Compare)"),
    ("test_gui_hostile_work", "test_a_panicking", "panic in a background task / encoder (Inspect, Compare)"),
    ("test_gui_hostile_work", "test_a_second", "second model opened while the first parses"),
    ("test_gui_hostile_work", "", "close / quit during a parse that never ends"),
    ("test_inspect_big_text", "test_a_big_text_is_encoded", "big paste encoded in pieces / windows (exact, cancel)"),
    ("test_inspect_big_text", "test_a_newer", "big paste encoded in pieces / windows (exact, cancel)"),
    ("test_inspect_big_text", "test_a_big_paste_shows", "big paste encoded in pieces / windows (exact, cancel)"),
    ("test_inspect_big_text", "test_a_sentencepiece", "big paste encoded in pieces / windows (exact, cancel)"),
    ("test_inspect_big_text", "test_windows", "big paste encoded in pieces / windows (exact, cancel)"),
    ("test_inspect_big_text", "test_overlapping", "big paste encoded in pieces / windows (exact, cancel)"),
    ("test_inspect_big_text", "", "big text into the Inspector's editor (slices, long lines)"),
    ("test_unique_word_corpus", "", "mostly-unique-word corpus: distinct-word cap, note, determinism (x4 algorithms)"),
    ("test_cancel_training", "test_indexing", "progress / cancel inside indexing (algorithm x step)"),
    ("test_cancel_training", "test_cancel_lands", "progress / cancel inside indexing (algorithm x step)"),
    ("test_hostile_settings", "test_every_key", "hostile settings value (key x attack)"),
    ("test_hostile_settings", "test_binary", "binary garbage settings file"),
    ("test_hostile_settings", "test_a_10_mb", "10 MB settings value"),
    ("test_hostile_settings", "test_any_text", "hypothesis text in settings"),
    ("test_hostile_settings", "test_the_window", "window opens on an all-bad settings file"),
    ("test_fuzzed_text", "test_hostile_text", "hostile text through an encoder (encoder x kind)"),
    ("test_fuzzed_text", "test_a_1m", "1M-character line through an encoder"),
    ("test_fuzzed_text", "test_a_lone_surrogate", "lone surrogate through an encoder"),
    ("test_fuzzed_text", "test_arbitrary", "hypothesis Unicode through an encoder"),
    ("test_fuzzed_text", "test_cli", "fuzzed / invalid text through tokviz encode"),
    ("test_corpus_edges", "test_a_corpus_without_words", "empty / whitespace-only corpus"),
    ("test_corpus_edges", "test_a_lone_surrogate", "lone surrogate in a corpus"),
    ("test_corpus_edges", "test_odd_but_valid", "odd corpora (NUL, one char, combining, bidi)"),
    ("test_corpus_edges", "test_a_fifo", "FIFO / device / folder as the corpus (core)"),
    ("test_corpus_edges", "test_cli_refuses", "FIFO / folder as the corpus (tokviz train)"),
    ("test_corpus_edges", "test_cli_empty", "empty / blank / invalid UTF-8 corpus (tokviz train)"),
    ("test_corpus_edges", "test_a_50mb", "50 MB one-line corpus (finish or Ctrl-C)"),
    ("test_corpus_edges", "test_cancel_while_reading", "cancel while reading the corpus"),
    ("test_corpus_edges", "test_unigram_skips", "words too long for Unigram"),
    ("test_corpus_edges", "test_a_5mb_word", "5 MB one-word corpus under a memory limit"),
    ("test_cancel_training", "test_closing", "close the window mid-training (phase x mode)"),
    ("test_cancel_training", "", "cancel a trainer (algorithm x phase)"),
    ("test_gui_special_files", "", "FIFO / folder / device opened as text in the window"),
]


def kind_of(node_id: str) -> str:
    module = Path(node_id.split("::")[0]).stem
    function = node_id.split("::")[-1]
    for mod, prefix, kind in KINDS:
        if mod == module and function.startswith(prefix):
            return kind
    return f"other ({module})"


def collect() -> list[str]:
    result = subprocess.run([sys.executable, "-m", "pytest", "--collect-only", "-q", "-p", "no:cacheprovider",
                             str(ROOT / "tests" / "reliability")], capture_output=True, text=True, cwd=ROOT, check=True)
    return [line for line in result.stdout.splitlines() if "::" in line]


def table(node_ids: list[str]) -> str:
    """A Markdown table of attack kinds and their case counts, in the order of :data:`KINDS`."""
    counts = Counter(kind_of(n) for n in node_ids)
    order = list(dict.fromkeys(k for _, _, k in KINDS)) + sorted(k for k in counts if k.startswith("other"))
    rows = [(k, counts[k]) for k in order if counts[k]]
    width = max(len(k) for k, _ in rows)
    lines = [f"| {'attack kind':<{width}} | cases |", f"|{'-' * (width + 2)}|------:|"]
    lines += [f"| {k:<{width}} | {n:>5} |" for k, n in rows]
    lines.append(f"| {'total':<{width}} | {sum(n for _, n in rows):>5} |")
    return "\n".join(lines)


if __name__ == "__main__":
    print(table(collect()))
