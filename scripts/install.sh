#!/usr/bin/env bash
# Installs wordgames from scratch into ./.venv: system packages (WordNet 3.0), the package with
# its test tools, and the optional extras the test suite exercises (torch CPU, ...).
# Usage: bash scripts/install.sh [--minimal]   (--minimal: no optional extras)
set -euo pipefail
cd "$(dirname "$0")/.."

if command -v apt-get >/dev/null 2>&1 && [ ! -f /usr/share/wordnet/data.noun ]; then
  if [ "$(id -u)" = 0 ]; then
    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq wordnet-base >/dev/null
  else
    echo "note: WordNet 3.0 missing; run as root or: sudo apt-get install wordnet-base" >&2
  fi
fi

python3 -m venv .venv
. .venv/bin/activate
python -m pip install -q --upgrade pip
if [ "${1:-}" = "--minimal" ]; then
  python -m pip install -q -e ".[test]"
else
  # torch is pinned to the local CPU build: a bare 'torch' would pull a multi-GB CUDA build
  python -m pip install -q -e ".[test,torch,gensim,contextual]"
fi
# nltk reads WordNet once a 'lexnames' file lies beside the data files (Debian ships none);
# without write access wordgames makes a private copy in its cache on first use instead.
if [ -w /usr/share/wordnet ]; then
  wordgames oddmanout wordnet-setup --root /usr/share/wordnet --in-place
fi
wordgames --version
