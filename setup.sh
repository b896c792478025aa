#!/usr/bin/env bash
# Set up botpsy on a fresh machine (Debian, Python 3.11, CPU only, no model hub), idempotently.
#   ./setup.sh           the venv with every extra, the default model fetched and verified
#   ./setup.sh --browser also Debian's chromium for the web-page tests (needs root / apt)
# Order matters: torch==2.13.0 (a CPU wheel) goes in before anything that depends on torch, or pip pulls a
# multi-GB CUDA build; llama-cpp-python is compiled from source (about 6 minutes on 2 cores, then cached by pip).
set -euo pipefail
cd "$(dirname "$0")"
PY=${PYTHON:-python3}
VENV=.venv
STAMP=$VENV/.botpsy-setup
want=$(cat pyproject.toml setup.sh | sha256sum | cut -c1-16)

if [[ ! -f $STAMP || $(cat "$STAMP") != "$want" ]]; then
  [[ -x $VENV/bin/python ]] || "$PY" -m venv "$VENV"
  "$VENV/bin/python" -m pip install -q --upgrade "pip==25.3"
  "$VENV/bin/python" -m pip install -q "torch==2.13.0"
  CMAKE_BUILD_PARALLEL_LEVEL=2 "$VENV/bin/python" -m pip install -q -e ".[all]"
  # bfcl-eval pins old versions of many API clients; the AST/multi-turn checkers need none of them.
  "$VENV/bin/python" -m pip install -q --no-deps "bfcl-eval==2026.3.23"
  echo "$want" > "$STAMP"
fi
"$VENV/bin/botpsy" models-fetch > /dev/null

if [[ ${1:-} == "--browser" ]] && ! command -v chromium > /dev/null; then
  (apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium > /dev/null) \
    || echo "setup.sh: could not install chromium; the browser tests will be skipped" >&2
fi
