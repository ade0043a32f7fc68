#!/usr/bin/env bash
# Runs every fuzz target in turn, one process each (the machine has two
# cores), for SECONDS seconds each (default 300). Run from fuzz/:
#
#     ./run-all.sh 300
#
# Findings land in artifacts/TARGET/; each run's log in logs/TARGET.log.
# An input may take 30 s before it counts as a hang: the examples' claims
# need a few seconds of CPU under the address sanitizer, more on a busy
# machine (tests/fuzz_regressions/claims-moores-nim-slow-under-asan.game).
set -uo pipefail
cd "$(dirname "$0")"
secs=${1:-300}
mkdir -p logs
for target in ${TARGETS:-parse check eval claims repl programs differential}; do
  [ -d "corpus/$target" ] || python3 seed.py
  mkdir -p "corpus/$target"
  RUSTC_BOOTSTRAP=1 cargo fuzz run -O "$target" -- \
    -max_total_time="$secs" -timeout=30 -rss_limit_mb=2048 -max_len=8192 \
    -dict=game.dict -print_final_stats=1 >"logs/$target.log" 2>&1
  echo "$target exited $?: $(grep -E '^(#[0-9]+|Done)' "logs/$target.log" | tail -1)"
done
