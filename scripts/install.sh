#!/usr/bin/env bash
# Installs wordgames from scratch into ./.venv: system packages (WordNet 3.0), the package with
# its test tools, and the optional extras the test suite exercises (torch CPU, ...).
# Usage: bash scripts/install.sh [--minimal]   (--minimal: no optional extras)
set -euo pipefail
cd "$(dirname "$0")/.."

# WordNet 3.0 (Odd-Man-Out taxonomy solver); Chromium checks that the HTML report renders and
# plays the web app's end-to-end tests (through chromium-driver); PostgreSQL 15's binaries start
# the throwaway servers of the web app's tests (the tests start and stop their own)
apt_pkgs=""
[ -f /usr/share/wordnet/data.noun ] || apt_pkgs="$apt_pkgs wordnet-base"
if [ "${1:-}" != "--minimal" ]; then
  command -v chromium >/dev/null 2>&1 || apt_pkgs="$apt_pkgs chromium"
  command -v chromedriver >/dev/null 2>&1 || apt_pkgs="$apt_pkgs chromium-driver"
  ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1 || apt_pkgs="$apt_pkgs postgresql"
fi
if [ -n "$apt_pkgs" ] && command -v apt-get >/dev/null 2>&1; then
  if [ "$(id -u)" = 0 ]; then
    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $apt_pkgs >/dev/null
  else
    echo "note: missing system packages:$apt_pkgs (run as root or: sudo apt-get install$apt_pkgs)" >&2
  fi
fi

python3 -m venv .venv
. .venv/bin/activate
python -m pip install -q --upgrade pip
if [ "${1:-}" = "--minimal" ]; then
  python -m pip install -q -e ".[test]"
else
  # torch is pinned to the local CPU build: a bare 'torch' would pull a multi-GB CUDA build
  python -m pip install -q -e ".[test,torch,gensim,contextual,embeddings,ray,serve]"
  # the chat tests' real model server: llama.cpp compiled from source (about 5 minutes on 2
  # cores; pip keeps the wheel). Built portable: the native build of 0.3.36 (AVX-512/AMX
  # kernels) crashed on every batch of more than one token on these machines.
  CMAKE_ARGS="-DGGML_NATIVE=OFF -DGGML_AVX=ON -DGGML_AVX2=ON -DGGML_FMA=ON -DGGML_F16C=ON" \
    python -m pip install -q -e ".[llm-server]"
fi
# nltk reads WordNet once a 'lexnames' file lies beside the data files (Debian ships none);
# without write access wordgames makes a private copy in its cache on first use instead.
if [ -w /usr/share/wordnet ]; then
  wordgames oddmanout wordnet-setup --root /usr/share/wordnet --in-place
fi
# numba compiles its kernels on first use (10-15 s of a newcomer's first run): do it now
python -m wordgames.warm
wordgames --version
