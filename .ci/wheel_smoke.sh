#!/usr/bin/env bash
# The wheel works outside the repository:
#   1. build the sdist, and the wheel from that sdist (python -m build), into a temp directory,
#   2. install the wheel into a fresh venv in a temp directory outside the repository,
#   3. from a temp working directory: `evidencegate demo`; `ingest` of the packaged example corpus
#      and an `ask` with the default policy, whose trace verifies; a policy and a JSON Schema
#      loaded through the public API, the schema validating the `ask --json` output.
# The repository is never on the path there: a file missing from the wheel fails here.
#
# Run it with an interpreter that has `build` (the dev extra) as `python3` (CI: inside the venv
# of .ci/run), or name it with PYTHON=... .
set -euo pipefail
cd "$(dirname "$0")/.."

PY="${PYTHON:-python3}"
REPO="$PWD"
SMOKE="$(mktemp -d)"
trap 'rm -rf "$SMOKE"' EXIT
unset PYTHONPATH

step() { echo "-- $*"; }

step "build the sdist, then the wheel from it"
"$PY" -m build --outdir "$SMOKE/dist" "$REPO" >"$SMOKE/build.log" 2>&1 || {
    tail -n 30 "$SMOKE/build.log"
    exit 1
}
ls "$SMOKE/dist"
"$PY" - "$SMOKE"/dist/*.whl <<'EOF'
import sys, zipfile
names = zipfile.ZipFile(sys.argv[1]).namelist()
data = [n for n in names if n.startswith("evidencegate/data/")]
print(f"wheel: {len(names)} files, {len(data)} under evidencegate/data/")
for part in ("policies/default.yaml", "schemas/gated_answer.schema.json", "example/golden.jsonl"):
    assert f"evidencegate/data/{part}" in names, f"the wheel lacks evidencegate/data/{part}"
EOF

step "install the wheel into a fresh venv outside the repository"
"$PY" -m venv "$SMOKE/venv"
VENV_PY="$SMOKE/venv/bin/python"
"$VENV_PY" -m pip install -q --disable-pip-version-check "$SMOKE"/dist/*.whl
mkdir "$SMOKE/work"
cd "$SMOKE/work"
"$VENV_PY" -c 'import evidencegate, sys; p = evidencegate.__file__; print("imported from", p); sys.exit(not p.startswith(sys.prefix))'
EG="$SMOKE/venv/bin/evidencegate"

step "evidencegate demo"
"$EG" demo --traces demo-traces >demo.log
tail -n 1 demo.log
for trace in demo-traces/*.jsonl; do "$EG" verify "$trace" >/dev/null; done

step "evidencegate ask with the default policy over the packaged example corpus"
CORPUS="$("$VENV_PY" -c 'from evidencegate.data import data_files; print(data_files() / "example" / "corpus")')"
"$EG" ingest "$CORPUS"/*.md --store store
"$EG" ask "What is the maximum value of a gift an employee may accept?" --as-of 2024-06-01 \
    --store store --policy default --trace-out ask.jsonl --json >answer.json
"$EG" verify ask.jsonl

step "a policy and a schema through the public API"
"$VENV_PY" - <<'EOF'
import json

import jsonschema

from evidencegate import GatedAnswer, load_policy, load_schema

strict = load_policy("regulated-strict")
schema = load_schema("gated_answer")
answer = json.loads(open("answer.json", encoding="utf-8").read())
jsonschema.Draft202012Validator(schema).validate(answer)
assert answer["policy"] == "default", answer["policy"]
print(f"policy {strict.name} (max_passes={strict.max_passes}); ask --json valid under "
      f"{schema['$id']}; outcome {GatedAnswer.model_validate(answer).outcome.value}")
EOF
echo "wheel smoke test passed"
