#!/usr/bin/env bash
# Times grundy's general search (games searched as a whole, with no
# decomposition) against hand-written solvers of the same games
# (bench/search-baseline), in one run, and prints a markdown table of
# seconds, their ratio, positions stored, grundy's bytes per position, the
# engine `--stats` names, and PASS or MISS against the targets: within 2x
# the hand-written solver (the goal is 1.2x) and at most 12 bytes a stored
# position. Both programs must agree on the Grundy value and the number of
# positions before any time is shown.
#
# It also times a game the engine was not tuned on, Node Kayles on a grid
# graph written as the language guide teaches (bench/games/node-kayles.game),
# against a hand-written solver, under the same 2x; its rows are in the
# group "unseen" rather than the targets'.
#
# It also checks symmetry: Cram on the first --cram board written with a
# symmetry declaration (bench/games/cram-symmetric.game) must store at most
# a third of the positions Cram stores without one. The row reads n/a when
# that file is missing or does not check (a grundy without the feature).
#
#   bench/search.sh                 # the targets' sizes: long (the slowest games take many minutes)
#   bench/search.sh --quick         # small sizes, one run each: well under a minute once built
#   bench/search.sh --games cram,wythoff --cram 4x4 --wythoff 100
#
# Options:
#   --quick            small sizes (Cram 4x4 and 3x6, Chomp 6x5, Wythoff 60x60,
#                      Mock Turtles 10 coins, Treblecross 16 cells, Moore's Nim
#                      on five piles of 5) and one run; options after it override
#   --cram LIST        Cram boards, ROWSxCOLUMNS (default 5x5,4x6)
#   --chomp RxC        the Chomp rectangle, as a grid and as heights (default 12x10)
#   --wythoff N        Wythoff's game from N, N (default 300)
#   --coins N          Mock Turtles on a row of N heads (default 20)
#   --cells N          the empty Treblecross row's length (default 28)
#   --piles LIST       the piles of Moore's Nim with k = 2 (default 15,15,15,15,15)
#   --node-kayles RxC  the grid graph of Node Kayles (default 5x6)
#   --games LIST       which games (default cram,chomp-grid,chomp-heights,wythoff,
#                      turtles,treblecross,moore,node-kayles,symmetry)
#   --runs R           time each command R times and report the median (default 3);
#                      a command whose first run takes over --once SECS runs once
#   --once SECS        (default 30)
#   --timeout SECS     give up on a single run after SECS seconds (default 1800):
#                      a grundy run stopped there is a MISS when the limit is past
#                      2x the hand-written time
#
# Seconds are wall-clock seconds of the whole process (start-up, parsing and
# printing included), read from bash's clock; peak memory comes from
# /usr/bin/time when it is present. Bytes per position are grundy's own
# count (`--stats`) of what its table holds. Outputs and a log go to
# bench/out/ (search-log.txt); the targets' rows, for bench/run.sh, to
# bench/out/search-targets.txt.
# Exit status: 1 when the programs disagree, else 0 (a MISS is a finding).
set -euo pipefail
export LC_ALL=C
unset CARGO_TARGET_DIR CARGO_BUILD_TARGET_DIR

here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/.." && pwd)"
cd "$root"

cram="5x5,4x6"; chomp="12x10"; wythoff=300; coins=20; cells=28; piles="15,15,15,15,15"; kayles="5x6"
only="cram,chomp-grid,chomp-heights,wythoff,turtles,treblecross,moore,node-kayles,symmetry"
runs=3
once=30
timeout_s=1800
while [ $# -gt 0 ]; do
  case "$1" in
    --quick) cram="4x4,3x6"; chomp="6x5"; wythoff=60; coins=10; cells=16; piles="5,5,5,5,5"; kayles="3x4"; runs=1; shift ;;
    --cram) cram="$2"; shift 2 ;;
    --chomp) chomp="$2"; shift 2 ;;
    --wythoff) wythoff="$2"; shift 2 ;;
    --coins) coins="$2"; shift 2 ;;
    --cells) cells="$2"; shift 2 ;;
    --piles) piles="$2"; shift 2 ;;
    --node-kayles) kayles="$2"; shift 2 ;;
    --games) only="$2"; shift 2 ;;
    --runs) runs="$2"; shift 2 ;;
    --once) once="$2"; shift 2 ;;
    --timeout) timeout_s="$2"; shift 2 ;;
    -h|--help) awk 'NR > 1 && /^#/ { sub(/^# ?/, ""); print; next } NR > 1 { exit }' "$0"; exit 0 ;;
    *) echo "search.sh: unknown argument '$1' (try --help)" >&2; exit 2 ;;
  esac
done
case "$piles" in ""|*[!0-9,]*|,*|*,|*,,*) echo "search.sh: --piles wants numbers such as 15,15,15,15" >&2; exit 2 ;; esac
case "$cram" in ""|*[!0-9x,]*|,*|*,|*,,*) echo "search.sh: --cram wants boards such as 5x5,4x6" >&2; exit 2 ;; esac
[[ "$chomp" =~ ^[0-9]+x[0-9]+$ ]] || { echo "search.sh: --chomp wants a rectangle such as 12x10" >&2; exit 2; }
[[ "$kayles" =~ ^[0-9]+x[0-9]+$ ]] || { echo "search.sh: --node-kayles wants a grid such as 5x6" >&2; exit 2; }
for number in "$wythoff" "$coins" "$cells" "$runs" "$once" "$timeout_s"; do
  case "$number" in ""|*[!0-9]*|0) echo "search.sh: '$number' is not a positive whole number" >&2; exit 2 ;; esac
done

out="$here/out"
mkdir -p "$out"
log="$out/search-log.txt"
: > "$log"
targets="$out/search-targets.txt"
: > "$targets"
# shellcheck source=bench/lib.sh
. "$here/lib.sh"
lib_init
note "bench/search.sh $*"

# --- build ------------------------------------------------------------------
note "building grundy (release) and the hand-written solvers..."
cargo build --release --quiet --bin grundy
cargo build --release --quiet --manifest-path "$here/search-baseline/Cargo.toml"
grundy_bin="$root/target/release/grundy"
baseline_bin="$here/search-baseline/target/release/search-baseline"

note "timing with $([ -n "$have_time" ] && echo /usr/bin/time || echo "bash's clock (no peak memory)"), median of $runs run(s) (one above ${once}s); each run limited to ${timeout_s}s"
note "machine: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo 2>/dev/null | cut -d: -f2- | sed 's/^ *//')"
note "grundy $(git -C "$root" rev-parse --short HEAD 2>/dev/null || echo '?')$(git -C "$root" diff --quiet -- src 2>/dev/null || echo ' (with uncommitted changes in src/)'), $(rustc --version)"

# engines ERRFILE: the engines --stats named ("Game: engine, ...").
engines() {
  sed -n 's/^stats: \([^ ]*\) ran on \(the \)\{0,1\}\(.*\)/\1: \3/p' "$1" 2>/dev/null | paste -sd ';' - | sed 's/;/; /g'
}

# The games: key | label | .game file | position | hand-written solver's arguments
games=()
IFS=',' read -r -a boards <<<"$cram"
for b in "${boards[@]}"; do
  games+=("cram|Cram ${b}, grid|cram.game|Cram($(grid "${b%x*}" "${b#*x}"))|cram ${b%x*} ${b#*x}")
done
chomp_rows="${chomp%x*}"; chomp_columns="${chomp#*x}"
games+=(
  "chomp-grid|Chomp ${chomp}, grid|chomp-grid.game|Chomp($(grid "$chomp_rows" "$chomp_columns"))|chomp $chomp_rows $chomp_columns"
  "chomp-heights|Chomp ${chomp}, column heights|chomp-heights.game|Chomp([$(repeated "$chomp_rows" "$chomp_columns")])|chomp $chomp_rows $chomp_columns"
  "wythoff|Wythoff ${wythoff}x${wythoff}|wythoff.game|Wythoff($wythoff, $wythoff)|wythoff $wythoff $wythoff"
  "turtles|Mock Turtles, $coins coins|mock-turtles.game|Turtles(\"$(repeated H "$coins" "")\")|turtles $(repeated H "$coins" "")"
  "treblecross|Treblecross, $cells cells|treblecross.game|Treblecross(\"$(repeated . "$cells" "")\")|treblecross $(repeated . "$cells" "")"
  "moore|Moore's Nim k=2 [$piles]|moores-nim.game|Moore(2, [${piles//,/, }])|moore 2 ${piles//,/ }"
  "node-kayles|Node Kayles ${kayles}, grid graph (a game not tuned on)|node-kayles.game|NK($(grid "${kayles%x*}" "${kayles#*x}"))|nodekayles ${kayles%x*} ${kayles#*x}"
)

rows=()
mismatch=0
first_cram_positions=""
# target GROUP WHAT N GRUNDY AGAINST RATIO GOAL RESULT: one row for bench/run.sh.
target() { local IFS='|'; echo "$*" >>"$targets"; }

for spec in "${games[@]}"; do
  IFS='|' read -r key label file position base_args <<<"$spec"
  case ",$only," in *",$key,"*) ;; *) continue ;; esac
  note "$label"

  # One search per process: the position count is the whole search's.
  # shellcheck disable=SC2086  # the solver's arguments are words
  time_one "hand-written" "$out/search-$key.baseline" "$baseline_bin" $base_args
  b_secs="$secs"; b_peak="$peak_kb"
  time_one "grundy value" "$out/search-$key.grundy" \
    "$grundy_bin" value "$here/games/$file" "$position" --stats --max-states 2000000000
  g_secs="$secs"; g_peak="$peak_kb"
  g_time="$g_secs"

  g_value="" g_positions="" g_bytes="-" b_value="" b_positions=""
  engine=$(engines "$out/search-$key.grundy.err")
  if is_number "$g_secs"; then
    g_value=$(head -n 1 "$out/search-$key.grundy")
    g_positions=$(sed -n 's/.*; \([0-9]*\) stored in .*/\1/p' "$out/search-$key.grundy.err" | tail -n 1)
    g_bytes=$(sed -n 's/.*(\([0-9.]*\) bytes\/position.*/\1/p' "$out/search-$key.grundy.err" | tail -n 1)
  fi
  if is_number "$b_secs"; then
    b_value=$(sed -n 's/^value //p' "$out/search-$key.baseline")
    b_positions=$(sed -n 's/^positions //p' "$out/search-$key.baseline")
  fi
  r="$(ratio "$g_secs" "$b_secs")"
  if [ -n "$g_value" ] && [ -n "$b_value" ]; then
    if [ "$g_value" = "$b_value" ] && [ "$g_positions" = "$b_positions" ]; then
      note "  both agree: value $g_value, $g_positions positions"
    else
      note "  MISMATCH: grundy value $g_value with $g_positions positions, hand-written value $b_value with $b_positions positions"
      mismatch=1
      g_time="mismatch"; r="-"
    fi
  elif [ "$g_secs" = timeout ] && is_number "$b_secs"; then
    # Stopped at the limit: slower than the limit shows.
    g_time="over $timeout_s"
    r="over $(ratio "$timeout_s" "$b_secs")"
  fi
  positions="${b_positions:-${g_positions:--}}"
  if [ "$key" = cram ] && [ -z "$first_cram_positions" ]; then
    first_cram_positions="$positions"; first_cram_label="$label"; first_cram_position="$position"
  fi

  speed="n/a"
  if is_number "$r"; then
    speed=$(verdict "$r" "<=" 2)
    if [ "$speed" = PASS ] && less "$r" 1.2000001; then speed="PASS (goal)"; fi
  elif [[ "$r" == over* ]] && less 2 "${r#over }"; then
    speed="MISS"
  fi
  memory=$(verdict "$g_bytes" "<=" 12)
  rows+=("$label|$g_time|$b_secs|$r|$positions|${g_value:-${b_value:--}}|$g_bytes|$speed|$memory|$((g_peak / 1024))|$((b_peak / 1024))|${engine:--}")
  group=search
  if [ "$key" = node-kayles ]; then
    # Not a target: shown, not counted.
    group=unseen; speed="info ($speed at 2x)"; memory="info ($memory at 12 bytes)"
  fi
  target "$group" "$label: within 2x the hand-written solver (goal 1.2x)" "$positions positions" \
    "grundy $g_time s" "hand-written $b_secs s" "$r" "<= 2" "$speed"
  target "$group" "$label: bytes per stored position" "$positions positions" \
    "grundy $g_bytes" "-" "$g_bytes" "<= 12" "$memory"
done

# --- symmetry ------------------------------------------------------------------
sym_row=""
if [[ ",$only," == *",symmetry,"* ]]; then
  sym_file="$here/games/cram-symmetric.game"
  b="${boards[0]}"
  sym_position="Cram($(grid "${b%x*}" "${b#*x}"))"
  label="Cram ${b} with its symmetries declared"
  note "$label"
  plain="$first_cram_positions"
  sym_positions="-"; sym_secs="-"; sym_ratio="-"; sym_result="n/a"; sym_note=""
  if [ -z "$plain" ]; then
    # No plain Cram in this run: the hand-written solver counts them.
    plain=$("$baseline_bin" cram "${b%x*}" "${b#*x}" | sed -n 's/^positions //p')
  fi
  if [ ! -f "$sym_file" ]; then
    sym_note="no bench/games/cram-symmetric.game"
  elif ! "$grundy_bin" check "$sym_file" >"$out/search-symmetry.check" 2>&1; then
    sym_note="the declaration does not check with this grundy (bench/out/search-symmetry.check)"
    cat "$out/search-symmetry.check" >>"$log"
  else
    time_one "grundy value, symmetric" "$out/search-symmetry.grundy" \
      "$grundy_bin" value "$sym_file" "$sym_position" --stats --max-states 2000000000
    sym_secs="$secs"
    if is_number "$sym_secs"; then
      sym_value=$(head -n 1 "$out/search-symmetry.grundy")
      sym_positions=$(sed -n 's/.*; \([0-9]*\) stored in .*/\1/p' "$out/search-symmetry.grundy.err" | tail -n 1)
      want=$("$baseline_bin" cram "${b%x*}" "${b#*x}" | sed -n 's/^value //p')
      if [ "$sym_value" != "$want" ]; then
        note "  MISMATCH: value $sym_value with symmetry, $want without"
        mismatch=1; sym_note="a different value"
      elif is_number "$sym_positions" && is_number "$plain"; then
        sym_ratio=$(awk -v a="$sym_positions" -v b="$plain" 'BEGIN { printf "%.3f", a / b }')
        sym_result=$(verdict "$sym_ratio" "<=" 0.3333334)
      fi
    else
      sym_note="grundy: $sym_secs"
    fi
  fi
  [ -z "$sym_note" ] || note "  symmetry: n/a ($sym_note)"
  sym_row="| $label | $sym_secs | $sym_positions | $plain | $sym_ratio | $sym_result${sym_note:+ ($sym_note)} |"
  target symmetry "$label: positions stored, at most a third of those without" "$b" \
    "$sym_positions stored${sym_note:+ ($sym_note)}" "without: $plain" "$sym_ratio" "<= 1/3" "$sym_result"
fi

# --- the table ------------------------------------------------------------------
{
  echo
  echo "| game | grundy s | hand-written s | ratio | positions | value | grundy bytes/position | within 2x | <= 12 bytes | grundy MB | hand-written MB | engine |"
  echo "| --- | ---: | ---: | ---: | ---: | ---: | ---: | --- | --- | ---: | ---: | --- |"
  for row in "${rows[@]}"; do
    IFS='|' read -r -a c <<<"$row"
    printf '| %s ' "${c[@]}"; echo "|"
  done
  if [ -n "$sym_row" ]; then
    echo
    echo "| symmetry | grundy s | positions stored | without | ratio | at most 1/3 |"
    echo "| --- | ---: | ---: | ---: | ---: | --- |"
    echo "$sym_row"
  fi
  echo
  echo "seconds: median of $runs whole-process run(s) in this run (one run above ${once} s); ratio: grundy /"
  echo "hand-written (PASS within 2x; the goal is 1.2x); bytes/position: grundy's --stats, what its"
  echo "table holds over the positions stored; MB: peak resident memory; engine: grundy's --stats"
} | tee -a "$log"

if [ "$mismatch" != 0 ]; then
  echo "the programs disagree: see $log" >&2
  exit 1
fi
