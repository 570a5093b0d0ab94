#!/usr/bin/env bash
# Train the 24 CBM runs shipped in src/wordgames/reproductions/cbm/ (Table 1 and appendix D presets).
#
# Each run trains a fixed number of steps (seed 0, one torch thread), so the logs do not
# depend on the machine's speed. Only what `wordgames cbm table` and `wordgames cbm evaluate`
# read is kept: config.json, run.json, train_log.jsonl, eval.json and messages.jsonl.gz; the
# checkpoints, the agent weights and the best-match graph (`cbm evaluate -o` draws it again)
# are deleted.
#
#   bash scripts/reproduce_cbm.sh [OUT] [--reverse]   # default OUT: src/wordgames/reproductions/cbm
#   wordgames cbm table src/wordgames/reproductions/cbm/*
#
# Several copies may run at once (one per core; a second with --reverse starts from the other
# end): each run is locked while it trains.
set -euo pipefail
out=${1:-src/wordgames/reproductions/cbm}
# preset:steps, shortest first: the step counts of the runs docs/cbm-games.md reported before,
# except shape-gs-l1 (4,000 of 18,000: that row stays at 0.66-0.69 validation accuracy from
# 1,000 to 18,000 steps, and the shorter run let all 24 fit in one session)
runs="shape-gs-l4:1000 shape-qt-l4:1000 d02:4000 d01:4500 d03:4500 d04:4500 d05:4500 d06:4500
d07:5000 d08:6500 d13:19000 d09:22000 d11:22000 d10:28000 thing-qt-l4:29000 thing-gs-l4:33500
d12:34500 d14:40000 d15:56500 d16:56500 shape-gs-l1:4000 shape-qt-l1:21500 thing-gs-l1:108000
thing-qt-l1:200000"
if [ "${2:-}" = "--reverse" ]; then
  runs=$(echo $runs | tr ' ' '\n' | tac)
fi
locks=${TMPDIR:-/tmp}/wordgames-cbm-locks
mkdir -p "$locks"
for item in $runs; do
  preset=${item%%:*}
  steps=${item##*:}
  dir="$out/$preset"
  exec 9>"$locks/$preset.lock"
  if ! flock -n 9; then
    echo "$preset: another copy trains it"
    continue
  fi
  if [ -f "$dir/eval.json" ] && [ ! -f "$dir/checkpoint.pt" ]; then
    echo "$preset: done already"
    continue
  fi
  echo "$preset: $steps steps"
  wordgames cbm train --preset "$preset" --steps "$steps" --seed 0 --threads 1 --out "$dir"
  rm -f "$dir/checkpoint.pt" "$dir/agents.pt" "$dir/best_match.png"
  if [ -f "$dir/messages.jsonl" ]; then
    gzip -n -9 -f "$dir/messages.jsonl"
  fi
  exec 9>&-
done
