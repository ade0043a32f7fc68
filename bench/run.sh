#!/usr/bin/env bash
# Times `grundy table` on heap games against a hand-written baseline
# (bench/baseline) and ogsolve (crates.io), in one run, and prints a table
# of seconds and ratios. Every program's values are checked against the
# others' before its time is shown.
#
#   bench/run.sh                        # octal games and Grundy's game to 10^5
#   bench/run.sh --sizes 100000,1000000 # octal games to 10^5 and 10^6 (long)
#   bench/run.sh --sizes 20000 --grundy-sizes 3000 --runs 1   # a quick run
#
# Options:
#   --sizes LIST          heap sizes N for Kayles, Dawson's Chess and 0.007 (default 100000)
#   --grundy-sizes LIST   heap sizes N for Grundy's game (default 100000); grundy
#                         reads it from rules (written out in bench/games/)
#   --games LIST          which games (default kayles,dawsons-chess,0.007,grundy)
#   --runs R              time each command R times and report the median (default 3)
#   --ogsolve-methods L   ogsolve's methods to try (default naive,rc,rc2); the best is shown
#   --timeout SECS        give up on a single run after SECS seconds (default 1800)
#
# Seconds are wall-clock seconds of the whole process (start-up, parsing and
# printing the values included), read from bash's clock; peak memory comes
# from /usr/bin/time when it is present. Outputs and a log go to bench/out/.
set -euo pipefail
export LC_ALL=C

here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/.." && pwd)"
cd "$root"

sizes="100000"
grundy_sizes="100000"
runs=3
og_methods="naive,rc,rc2"
timeout_s=1800
only="kayles,dawsons-chess,0.007,grundy"
while [ $# -gt 0 ]; do
  case "$1" in
    --sizes) sizes="$2"; shift 2 ;;
    --grundy-sizes) grundy_sizes="$2"; shift 2 ;;
    --runs) runs="$2"; shift 2 ;;
    --games) only="$2"; shift 2 ;;
    --ogsolve-methods) og_methods="$2"; shift 2 ;;
    --timeout) timeout_s="$2"; shift 2 ;;
    -h|--help) awk 'NR > 1 && /^#/ { sub(/^# ?/, ""); print; next } NR > 1 { exit }' "$0"; exit 0 ;;
    *) echo "run.sh: unknown argument '$1' (try --help)" >&2; exit 2 ;;
  esac
done
sizes="${sizes//,/ }"
grundy_sizes="${grundy_sizes//,/ }"
og_methods="${og_methods//,/ }"

out="$here/out"
mkdir -p "$out"
log="$out/log.txt"
: > "$log"
note() { echo "$*" | tee -a "$log" >&2; }

# --- build ------------------------------------------------------------------
note "building grundy (release) and the baseline..."
cargo build --release --quiet --bin grundy
cargo build --release --quiet --manifest-path "$here/baseline/Cargo.toml"
grundy_bin="$root/target/release/grundy"
baseline_bin="$here/baseline/target/release/baseline"

tools="$here/.tools"
ogsolve_bin="$tools/bin/ogsolve"
if [ ! -x "$ogsolve_bin" ]; then
  note "installing ogsolve from crates.io into bench/.tools..."
  if ! cargo install --quiet --locked ogsolve --root "$tools" 2>>"$log" \
    && ! cargo install --quiet ogsolve --root "$tools" 2>>"$log"; then
    note "ogsolve could not be installed: its column is left empty"
  fi
fi
[ -x "$ogsolve_bin" ] || ogsolve_bin=""

if [ -x /usr/bin/time ]; then timer="/usr/bin/time"; else timer="bash's clock (no peak memory)"; fi
have_timeout=""
command -v timeout >/dev/null 2>&1 && have_timeout=1
note "timing with $timer, median of $runs run(s); each run limited to ${timeout_s}s"
note "machine: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo 2>/dev/null | cut -d: -f2- | sed 's/^ *//')"
note "grundy $(git -C "$root" rev-parse --short HEAD 2>/dev/null || echo '?')$(git -C "$root" diff --quiet -- src 2>/dev/null || echo ' (with uncommitted changes in src/)'), $(rustc --version)"

# --- timing -----------------------------------------------------------------
# run_once OUTFILE CMD...: runs CMD with its standard output to OUTFILE and
# prints its wall seconds and peak memory in KB (0 when /usr/bin/time is
# missing), or "timeout"/"failed". Wall seconds come from bash's clock
# (microseconds); /usr/bin/time is asked only for the peak memory.
run_once() {
  local outfile="$1"; shift
  local tfile="$out/.time"
  local limit=()
  [ -n "$have_timeout" ] && limit=(timeout "$timeout_s")
  local wrap=()
  [ "$timer" = "/usr/bin/time" ] && wrap=(/usr/bin/time -f "%M" -o "$tfile")
  local status=0 start end peak=0
  start=$EPOCHREALTIME
  "${limit[@]}" "${wrap[@]}" "$@" >"$outfile" 2>>"$log" || status=$?
  end=$EPOCHREALTIME
  if [ "$status" = 124 ]; then echo "timeout"; return; fi
  if [ "$status" != 0 ]; then echo "failed"; return; fi
  # /usr/bin/time may write a note before its figure; the last line holds it.
  [ "$timer" = "/usr/bin/time" ] && peak=$(tail -n 1 "$tfile")
  awk -v a="$start" -v b="$end" -v p="$peak" 'BEGIN { printf "%.3f %d\n", b - a, p }'
}

# median SECONDS...: the median of the figures given.
median() {
  printf '%s\n' "$@" | sort -g | awk '{a[NR]=$1} END {
    if (NR == 0) { print "-"; exit }
    if (NR % 2) print a[(NR+1)/2]; else printf "%.3f\n", (a[NR/2] + a[NR/2+1]) / 2 }'
}

# measure NAME OUTFILE CMD...: runs CMD $runs times, keeps the first run's
# output in OUTFILE, and sets $secs (median) and $peak_kb (largest peak).
measure() {
  local name="$1" outfile="$2"; shift 2
  local times=() r result peak=0
  for ((r = 1; r <= runs; r++)); do
    if [ "$r" = 1 ]; then result=$(run_once "$outfile" "$@"); else result=$(run_once /dev/null "$@"); fi
    case "$result" in
      timeout|failed) note "  $name: $result ($*)"; secs="$result"; peak_kb=0; return ;;
    esac
    times+=("${result% *}")
    [ "${result#* }" -gt "$peak" ] && peak="${result#* }"
  done
  secs=$(median "${times[@]}")
  peak_kb=$peak
  note "  $name: ${times[*]} s -> median $secs s, peak $((peak / 1024)) MB"
}

ratio() {
  case "$1$2" in *[!0-9.]*|"") echo "-"; return ;; esac
  awk -v a="$1" -v b="$2" 'BEGIN { if (b > 0) printf "%.2f", a / b; else print "-" }'
}

# --- the games ----------------------------------------------------------------
# key | name | .game file | game | baseline arguments | ogsolve code ("" = none)
games=(
  "kayles|Kayles (0.77)|$here/games/kayles.game|Kayles|octal 0.77|0.77"
  "dawsons-chess|Dawson's Chess (0.137)|$here/games/dawsons-chess.game|DawsonsChess|octal 0.137|0.137"
  "0.007|0.007|$here/games/triple.game|Triple|octal 0.007|0.007"
  "grundy|Grundy's game (rules)|$here/games/grundys-game.game|Grundy|grundy|"
)

rows=()
mismatch=0
for spec in "${games[@]}"; do
  IFS='|' read -r key label file game base_args og_code <<<"$spec"
  case ",$only," in *",$key,"*) ;; *) continue ;; esac
  if [ "$base_args" = grundy ]; then these="$grundy_sizes"; else these="$sizes"; fi
  for n in $these; do
    note "$label, N = $n"
    tag="$(echo "$game" | tr 'A-Z' 'a-z')-$n"

    # grundy
    measure "grundy table" "$out/$tag.grundy.json" \
      "$grundy_bin" table "$file" "$game" --upto "$n" --json --max-states 100000000
    g_secs="$secs"; g_peak="$peak_kb"
    g_digest=""
    if [[ "$g_secs" =~ ^[0-9.]+$ ]]; then
      "$baseline_bin" digest "$out/$tag.grundy.json" >"$out/$tag.grundy.digest"
      g_digest="$out/$tag.grundy.digest"
    fi

    # the baseline: each method, the best one counts
    b_best="-"; b_best_method=""; b_digest=""
    for method in mask bytes; do
      # shellcheck disable=SC2086
      measure "baseline --method $method" "$out/$tag.baseline-$method.txt" \
        "$baseline_bin" $base_args "$n" --method "$method"
      [[ "$secs" =~ ^[0-9.]+$ ]] || continue
      if [ -z "$b_digest" ]; then
        b_digest="$out/$tag.baseline-$method.txt"
      elif ! cmp -s "$b_digest" "$out/$tag.baseline-$method.txt"; then
        note "  MISMATCH: the baseline's methods disagree"; mismatch=1
      fi
      if [ "$b_best" = "-" ] || awk -v a="$secs" -v b="$b_best" 'BEGIN { exit !(a < b) }'; then
        b_best="$secs"; b_best_method="$method"
      fi
    done
    if [ -n "$g_digest" ] && [ -n "$b_digest" ]; then
      if cmp -s "$g_digest" "$b_digest"; then
        note "  grundy and the baseline agree (checksum, largest value, last 1000 values)"
      else
        note "  MISMATCH: grundy and the baseline disagree: diff $g_digest $b_digest"; mismatch=1
      fi
    fi

    # ogsolve: each method, the best one counts
    o_best="-"; o_best_method=""
    if [ -n "$og_code" ] && [ -n "$ogsolve_bin" ]; then
      want_sum=$(sed -n 's/^checksum //p' "$b_digest")
      want_last=$(sed -n 's/^last [0-9]*: //p' "$b_digest" | awk '{print $NF}')
      for method in $og_methods; do
        measure "ogsolve -m $method" "$out/$tag.ogsolve-$method.txt" \
          "$ogsolve_bin" "$og_code" -n "$n" -m "$method"
        [[ "$secs" =~ ^[0-9.]+$ ]] || continue
        got=$(grep -o "nimber of $n: [0-9]*  .*checksum: [0-9A-F]*" "$out/$tag.ogsolve-$method.txt" || true)
        if [ "$(echo "$got" | sed -n 's/.*checksum: //p')" = "$want_sum" ] \
          && [ "$(echo "$got" | sed -n "s/nimber of $n: \([0-9]*\) .*/\1/p")" = "$want_last" ]; then
          note "  ogsolve -m $method agrees (checksum $want_sum, g($n) = $want_last)"
        else
          note "  MISMATCH: ogsolve -m $method: '$got', the baseline: checksum $want_sum, g($n) = $want_last"
          mismatch=1
        fi
        if [ "$o_best" = "-" ] || awk -v a="$secs" -v b="$o_best" 'BEGIN { exit !(a < b) }'; then
          o_best="$secs"; o_best_method="$method"
        fi
      done
    fi

    og_cell="n/a"
    [ -n "$og_code" ] && og_cell="$o_best${o_best_method:+ ($o_best_method)}"
    rows+=("$label|$n|$g_secs|$((g_peak / 1024))|$b_best${b_best_method:+ ($b_best_method)}|$og_cell|$(ratio "$g_secs" "$b_best")|$(ratio "$g_secs" "$o_best")")
  done
done

# --- the table ------------------------------------------------------------------
{
  echo
  printf '%-24s %8s %10s %9s %16s %16s %14s %14s\n' \
    game N "grundy s" "grundy MB" "baseline s" "ogsolve best s" "grundy/base" "grundy/ogsolve"
  for row in "${rows[@]}"; do
    IFS='|' read -r a b c d e f g h <<<"$row"
    printf '%-24s %8s %10s %9s %16s %16s %14s %14s\n' "$a" "$b" "$c" "$d" "$e" "$f" "$g" "$h"
  done
  echo
  echo "seconds: median of $runs whole-process run(s), measured in this run; baseline and"
  echo "ogsolve: their fastest method; MB: grundy's peak resident memory"
} | tee -a "$log"

if [ "$mismatch" != 0 ]; then
  echo "some programs disagree on the values: see $log" >&2
  exit 1
fi
