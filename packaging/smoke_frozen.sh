#!/usr/bin/env bash
# Build the one-folder PyInstaller app and check that the *frozen* app works: it lists its
# encoders (rank files found inside the bundle), encodes Korean text, and renders the Inspect
# panel and the Train panel (trained on the bundled demo corpus) offscreen to non-trivial PNGs.
#
#   packaging/smoke_frozen.sh            # build, then smoke-test
#   SKIP_BUILD=1 packaging/smoke_frozen.sh   # smoke-test an existing build
#
# Exit status: 0 = passed, 1 = a check failed, 77 = PyInstaller is not installed (skipped).
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
BUILD="${TOKVIZ_BUILD_DIR:-$ROOT/build/pyinstaller}"
APP="$BUILD/dist/tokviz/tokviz"
OUT="$BUILD/smoke"
PYTHON="${PYTHON:-python3}"

fail() { echo "smoke_frozen: FAIL: $*" >&2; exit 1; }

if [[ "${SKIP_BUILD:-0}" != 1 ]]; then
    if ! "$PYTHON" -c "import PyInstaller" 2>/dev/null; then
        echo "smoke_frozen: PyInstaller is not installed (pip install pyinstaller); skipped" >&2
        exit 77
    fi
    echo "== building with PyInstaller $("$PYTHON" -c 'import PyInstaller; print(PyInstaller.__version__)')"
    start=$(date +%s)
    "$PYTHON" -m PyInstaller --noconfirm --clean --log-level WARN \
        --distpath "$BUILD/dist" --workpath "$BUILD/work" "$ROOT/packaging/tokviz.spec"
    echo "== built in $(( $(date +%s) - start )) s: $(du -sh "$BUILD/dist/tokviz" | cut -f1)"
fi

[[ -x "$APP" ]] || fail "no frozen executable at $APP"
rm -rf "$OUT" && mkdir -p "$OUT"
# Run from an empty folder with a clean environment so nothing from the source checkout or the
# build machine's site-packages can stand in for what the bundle is missing.
cd "$OUT"
run() { env -i HOME="$OUT" PATH=/usr/bin:/bin LANG=C.UTF-8 QT_QPA_PLATFORM=offscreen "$APP" "$@"; }

echo "== tokviz --version"
run --version

echo "== tokviz encoders --json"
run encoders --json > encoders.json
"$PYTHON" - encoders.json <<'EOF' || fail "encoders missing in the frozen app"
import json, sys
rows = {r["name"]: r for r in json.load(open(sys.argv[1], encoding="utf-8"))}
for name in ("gpt2", "cl100k_base", "o200k_base"):
    row = rows.get(name)
    assert row and row["available"], f"{name}: {row and row['reason']}"
# every catalogue model the build environment had (hash verified) travels inside the bundle
from tokviz.core.encoders.model_catalog import CATALOG, probe
for model in CATALOG:
    row = rows.get(model.name)
    if probe(model)[0]:
        assert row and row["available"], f"{model.name} was not bundled: {row and row['reason']}"
    else:
        assert row and "not bundled in this build" in row["reason"], row
print("   available:", ", ".join(n for n, r in rows.items() if r["available"]))
EOF

echo "== tokviz encode -e cl100k_base --json 값이 올랐다 👨‍👩‍👧"
run encode -e cl100k_base --json "값이 올랐다 👨‍👩‍👧" > encode.json
"$PYTHON" - encode.json <<'EOF' || fail "encode output is wrong"
import json, sys
data = json.load(open(sys.argv[1], encoding="utf-8"))
assert data["tokens"] and data["metrics"]["round_trip"], data["metrics"]
print("   tokens:", data["metrics"]["tokens"])
EOF

# The app renders chat templates in a child it can kill: frozen, that child is this executable again.
echo "== tokviz chat: a Jinja template renders, and one C call that never yields is ended"
printf '[{"role": "user", "content": "안녕 👋"}]' > messages.json
printf '{%% for m in messages %%}<{{ m.role }}>{{ m.content }}{%% endfor %%}' > plain.jinja
run chat -e cl100k_base --template plain.jinja --json messages.json > chat.json || fail "a plain template failed"
"$PYTHON" - chat.json <<'EOF' || fail "the plain template rendered wrongly"
import json, sys
data = json.load(open(sys.argv[1], encoding="utf-8"))
assert data["text"] == "<user>안녕 👋", data["text"]
EOF
printf '{{ ([[0] * 100] * 20000) | sum(start=[]) | length }}' > bomb.jinja
status=0
run chat -e cl100k_base --template bomb.jinja messages.json > bomb.out 2> bomb.err || status=$?
[[ $status == 2 ]] && grep -q "its process was ended" bomb.err \
    || fail "the template bomb was not ended by its process (exit $status): $(cat bomb.err)"
echo "   $(cat bomb.err)"

# One model per catalogue family (tokenizer.json through tokenizers, a rank file, SentencePiece) and a GGUF
# file: the frozen app gives the ids the installed tokviz gives. GGUF opens through the gguf package, whose
# import reaches for requests and mistral_common only inside try/except: the build leaves requests out, and
# the frozen app must still read a GGUF file. The installed side writes the GGUF file and encodes every
# model the frozen app lists as available in one Python process (a process each would start Python and
# tokviz anew); the frozen app still runs once per model, and each ids list is compared.
SAMPLE="값이 올랐다 👨‍👩‍👧 tokenizer"
models=$("$PYTHON" - encoders.json deepseek-v4 qwen3.6 mistral-sp-v1 <<'EOF'
import json, sys
rows = {r["name"]: r for r in json.load(open(sys.argv[1], encoding="utf-8"))}
print(" ".join(name for name in sys.argv[2:] if name in rows and rows[name]["available"]))
EOF
) || fail "encoders.json unreadable"
# shellcheck disable=SC2086  # the model names are words
(cd "$ROOT" && "$PYTHON" - "$OUT" "$SAMPLE" $models <<'EOF') || fail "the installed tokviz failed (a model or the GGUF file)"
import contextlib, sys
from pathlib import Path
from tests.support.boundary_encoders import gguf_from_bpe
from tests.support.trained_models import bpe_model
from tokviz import cli
out, text, names = Path(sys.argv[1]), sys.argv[2], sys.argv[3:]
gguf_from_bpe(bpe_model("byte", 80), out / "small.gguf")
runs = {name: ["-e", name] for name in names} | {"gguf": ["--model", str(out / "small.gguf")]}
for name, source in runs.items():
    with open(out / f"installed-{name}.json", "w", encoding="utf-8") as f, contextlib.redirect_stdout(f):
        status = cli.main(["encode", *source, "--json", text])
    assert status == 0, f"{name}: exit {status}"
EOF
same_ids() {  # FROZEN.json INSTALLED.json: the same ids, and some
    "$PYTHON" - "$1" "$2" <<'EOF'
import json, sys
frozen, installed = ([t["id"] for t in json.load(open(p, encoding="utf-8"))["tokens"]] for p in sys.argv[1:3])
assert frozen == installed and frozen, (frozen, installed)
print("   ids:", frozen[:12], "..." if len(frozen) > 12 else "")
EOF
}
for name in $models; do
    echo "== tokviz encode -e $name (frozen = installed)"
    run encode -e "$name" --json "$SAMPLE" > "frozen-$name.json" || fail "$name: the frozen app failed"
    same_ids "frozen-$name.json" "installed-$name.json" || fail "$name: the frozen app's ids differ"
done
echo "== tokviz encode --model small.gguf (frozen = installed)"
run encode --model "$OUT/small.gguf" --json "$SAMPLE" > frozen-gguf.json || fail "the frozen app cannot read a GGUF file"
same_ids frozen-gguf.json installed-gguf.json || fail "the frozen app's GGUF ids differ"

check_png() {
    "$PYTHON" - "$1" <<'EOF' || fail "$1 is not a real picture"
import struct, sys
data = open(sys.argv[1], "rb").read()
assert data[:8] == b"\x89PNG\r\n\x1a\n", "not a PNG"
width, height = struct.unpack(">II", data[16:24])
assert width >= 400 and height >= 300, (width, height)
assert len(data) > 20_000, f"only {len(data)} bytes: probably blank"
print(f"   {sys.argv[1]}: {width}x{height}, {len(data)} bytes")
EOF
}

echo "== tokviz screenshot --view inspect"
run screenshot --view inspect -o inspect.png --text "안녕하세요 👋🏽 tokviz"
check_png inspect.png

# trains on the demo corpus bundled in _internal/tokviz/resources, in the panel's worker thread
echo "== tokviz screenshot --view train --merges 50"
run screenshot --view train --merges 50 -o train.png
check_png train.png

echo "smoke_frozen: PASS ($OUT/inspect.png, $OUT/train.png)"
