#!/usr/bin/env bash
# Times grundy's general search (games searched as a whole, with no
# decomposition) against hand-written solvers of the same games
# (bench/search-baseline), in one run, and prints a markdown table of
# seconds, their ratio, positions stored, grundy's positions searched per
# second and its bytes per position.
# Both programs must agree on the Grundy value and the number of positions
# before any time is shown.
#
#   bench/search.sh                       # Moore's Nim [15,15,15,15], Treblecross of 20 cells
#   bench/search.sh --piles 9,9,9,9 --cells 16 --runs 1   # a quick run
#
# Options:
#   --piles LIST      the piles of Moore's Nim with k = 2 (default 15,15,15,15)
#   --cells N         the empty Treblecross row's length (default 20)
#   --games LIST      which games (default moore,treblecross)
#   --runs R          time each command R times and report the median (default 3)
#   --timeout SECS    give up on a single run after SECS seconds (default 1800)
#
# Seconds are wall-clock seconds of the whole process (start-up, parsing and
# printing included), read from bash's clock; peak memory comes from
# /usr/bin/time when it is present. Bytes per position are grundy's own
# count (`--stats`) of what its memo and interner hold. Outputs and a log
# go to bench/out/.
set -euo pipefail
export LC_ALL=C

here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/.." && pwd)"
cd "$root"

piles="15,15,15,15"
cells=20
only="moore,treblecross"
runs=3
timeout_s=1800
while [ $# -gt 0 ]; do
  case "$1" in
    --piles) piles="$2"; shift 2 ;;
    --cells) cells="$2"; shift 2 ;;
    --games) only="$2"; shift 2 ;;
    --runs) runs="$2"; shift 2 ;;
    --timeout) timeout_s="$2"; shift 2 ;;
    -h|--help) awk 'NR > 1 && /^#/ { sub(/^# ?/, ""); print; next } NR > 1 { exit }' "$0"; exit 0 ;;
    *) echo "search.sh: unknown argument '$1' (try --help)" >&2; exit 2 ;;
  esac
done
case "$piles" in ""|*[!0-9,]*|,*|*,|*,,*) echo "search.sh: --piles wants numbers such as 15,15,15,15" >&2; exit 2 ;; esac
case "$cells" in ""|*[!0-9]*) echo "search.sh: --cells wants a number" >&2; exit 2 ;; esac
case "$runs" in ""|*[!0-9]*|0) echo "search.sh: --runs wants a positive number" >&2; exit 2 ;; esac

out="$here/out"
mkdir -p "$out"
log="$out/search-log.txt"
: > "$log"
# shellcheck source=bench/lib.sh
. "$here/lib.sh"
lib_init

# --- build ------------------------------------------------------------------
note "building grundy (release) and the hand-written solvers..."
cargo build --release --quiet --bin grundy
cargo build --release --quiet --manifest-path "$here/search-baseline/Cargo.toml"
grundy_bin="$root/target/release/grundy"
baseline_bin="$here/search-baseline/target/release/search-baseline"

note "timing with $([ -n "$have_time" ] && echo /usr/bin/time || echo "bash's clock (no peak memory)"), median of $runs run(s); each run limited to ${timeout_s}s"
note "machine: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo 2>/dev/null | cut -d: -f2- | sed 's/^ *//')"
note "grundy $(git -C "$root" rev-parse --short HEAD 2>/dev/null || echo '?')$(git -C "$root" diff --quiet -- src 2>/dev/null || echo ' (with uncommitted changes in src/)'), $(rustc --version)"

# --- the games ----------------------------------------------------------------
board=$(printf '%*s' "$cells" '' | tr ' ' '.')
# key | label | .game file | position | hand-written solver's arguments
games=(
  "moore|Moore's Nim k=2 [$piles]|$here/games/moores-nim.game|Moore(2, [$piles])|moore 2 ${piles//,/ }"
  "treblecross|Treblecross board, $cells cells|$here/games/treblecross.game|Treblecross(\"$board\")|treblecross $board"
)

rows=()
mismatch=0
for spec in "${games[@]}"; do
  IFS='|' read -r key label file position base_args <<<"$spec"
  case ",$only," in *",$key,"*) ;; *) continue ;; esac
  note "$label"

  # One search per process: the position count is the whole search's.
  measure "grundy value" "$out/search-$key.grundy" \
    "$grundy_bin" value "$file" "$position" --stats --max-states 100000000
  g_secs="$secs"; g_peak="$peak_kb"
  # shellcheck disable=SC2086
  measure "hand-written" "$out/search-$key.baseline" "$baseline_bin" $base_args
  b_secs="$secs"; b_peak="$peak_kb"

  g_value="" g_positions="" g_bytes="-" g_rate="-" b_value="" b_positions=""
  if [[ "$g_secs" =~ ^[0-9.]+$ ]]; then
    g_value=$(head -n 1 "$out/search-$key.grundy")
    g_positions=$(sed -n 's/.*; \([0-9]*\) stored in .*/\1/p' "$out/search-$key.grundy.err")
    g_bytes=$(sed -n 's/.*(\([0-9.]*\) bytes\/position.*/\1/p' "$out/search-$key.grundy.err")
    g_rate=$(sed -n 's/.* s (\([0-9]*\) positions\/s).*/\1/p' "$out/search-$key.grundy.err")
  fi
  if [[ "$b_secs" =~ ^[0-9.]+$ ]]; then
    b_value=$(sed -n 's/^value //p' "$out/search-$key.baseline")
    b_positions=$(sed -n 's/^positions //p' "$out/search-$key.baseline")
  fi
  if [ -n "$g_value" ] && [ -n "$b_value" ]; then
    if [ "$g_value" = "$b_value" ] && [ "$g_positions" = "$b_positions" ]; then
      note "  both agree: value $g_value, $g_positions positions"
    else
      note "  MISMATCH: grundy value $g_value with $g_positions positions, hand-written value $b_value with $b_positions positions"
      mismatch=1
      g_secs="mismatch"
    fi
  fi
  rows+=("$label|$g_secs|$b_secs|$(ratio "$g_secs" "$b_secs")|${g_positions:-${b_positions:--}}|${g_value:-${b_value:--}}|${g_rate:--}|$g_bytes|$((g_peak / 1024))|$((b_peak / 1024))")
done

# --- the table ------------------------------------------------------------------
{
  echo
  echo "| game | grundy s | hand-written s | ratio | positions | value | grundy positions/s | grundy bytes/position | grundy MB | hand-written MB |"
  echo "| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |"
  for row in "${rows[@]}"; do
    IFS='|' read -r a b c d e f g h i j <<<"$row"
    echo "| $a | $b | $c | $d | $e | $f | $g | $h | $i | $j |"
  done
  echo
  echo "seconds: median of $runs whole-process run(s) in this run; ratio: grundy / hand-written;"
  echo "positions/s: grundy's own count (--stats) of the search alone, start-up and parsing left out;"
  echo "bytes/position: grundy's memo and interner over the positions stored; MB: peak resident memory"
} | tee -a "$log"

if [ "$mismatch" != 0 ]; then
  echo "the programs disagree: see $log" >&2
  exit 1
fi
