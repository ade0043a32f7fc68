#!/usr/bin/env bash
# How much a game's speed depends on how it is written: every rewrite in
# bench/games/rewrites/ (the same heap games written as a newcomer would,
# from the language guide) is timed with `grundy table FILE GAME --upto N
# --no-shortcut` against the same game's fastest form in bench/games/, in
# the same run, and one table shows each with its seconds, its ratio to the
# fastest form, its positions (heaps) a second and the engines `--stats`
# says ran it. Each rewrite's values are compared with the fastest form's
# before its time is shown.
#
# With --search it also times the general-search games (Cram, Chomp as a
# grid and as column heights, Wythoff, Mock Turtles, Treblecross, Moore's
# Nim) with `grundy value FILE POSITION --stats`, and shows the positions
# searched, positions a second, bytes a stored position and the engines,
# from --stats.
#
#   bench/rewrites.sh                 # N = 4000, one run each
#   bench/rewrites.sh --quick         # N = 500: a few seconds once built
#   bench/rewrites.sh --upto 100000 --only grundy --timeout 300
#   bench/rewrites.sh --search        # the general search too (the issue's sizes: long)
#   bench/rewrites.sh --search --quick  # ... at small sizes
#
# Options:
#   --quick           N = 500 and small search positions
#   --upto N          the table's last heap (default 4000)
#   --only WORD       only the rewrites whose file name holds WORD
#   --runs R          time each command R times, the median counts (default 1)
#   --timeout SECS    give up on one run after SECS seconds (default 600)
#   --search          also time the general-search games
#   --no-heaps        skip the heap games' rewrites
#
# Outputs, the exact commands and a log go to bench/out/rewrites/ (log.txt).
# Exit status: 1 when a rewrite's values differ from its fastest form's,
# else 0 (a large ratio is a finding, not a failure).
here="$(cd "$(dirname "$0")" && pwd)"
# shellcheck source=bench/lib.sh
. "$here/lib.sh"
bench_setup

upto=4000
quick=0
only=""
runs=1
timeout_s=600
search=0
heaps=1
while [ $# -gt 0 ]; do
  case "$1" in
    --quick) quick=1; upto=500; shift ;;
    --upto) upto="$2"; shift 2 ;;
    --only) only="$2"; shift 2 ;;
    --runs) runs="$2"; shift 2 ;;
    --timeout) timeout_s="$2"; shift 2 ;;
    --search) search=1; shift ;;
    --no-heaps) heaps=0; shift ;;
    -h|--help) awk 'NR > 1 && /^#/ { sub(/^# ?/, ""); print; next } NR > 1 { exit }' "$0"; exit 0 ;;
    *) echo "rewrites.sh: unknown argument '$1' (try --help)" >&2; exit 2 ;;
  esac
done
for number in "$upto" "$runs" "$timeout_s"; do
  case "$number" in ""|*[!0-9]*|0) echo "rewrites.sh: '$number' is not a positive whole number" >&2; exit 2 ;; esac
done

out="$here/out/rewrites"
mkdir -p "$out"
log="$out/log.txt"
: > "$log"
note "bench/rewrites.sh $*"
lib_init

note "building grundy (release)..."
cargo build --release --quiet --bin grundy
grundy_bin="$root/target/release/grundy"
games="$here/games"
status=0

# values FILE: the table's value lines alone (its heading names the game,
# and its last line says how a period was found, which differs by path).
values() { grep -E '^ *[0-9]+:' "$1" || true; }

# per_second COUNT SECONDS: COUNT / SECONDS, whole, or "-".
per_second() {
  if ! is_number "$2"; then echo "-"; return; fi
  awk -v c="$1" -v s="$2" 'BEGIN { if (s > 0) printf "%.0f", c / s; else print "-" }'
}

# --- heap games ---------------------------------------------------------------
heap_rows="$out/heaps.rows"
echo "game|form|N|seconds|ratio to fastest|heaps/s|engine (--stats)" > "$heap_rows"
declare -A fastest_secs=()

# time_table KEY FILE GAME: times the table to $upto; sets $secs, and
# $engine to the engines that ran it.
time_table() {
  local key="$1" file="$2" game="$3"
  measure "$key" "$out/$key.txt" "$grundy_bin" table "$file" "$game" --upto "$upto" --no-shortcut --stats
  engine=$(engines_of "$out/$key.txt.err")
}

if [ "$heaps" = 1 ]; then
  while read -r rewrite game form form_game; do
    case "$rewrite" in ""|"#"*) continue ;; esac
    [ -z "$only" ] || [[ "$rewrite" == *"$only"* ]] || continue
    ref="${form%.game}"
    if [ -z "${fastest_secs[$ref]:-}" ]; then
      note "$form ($form_game) to $upto"
      time_table "$ref" "$games/$form" "$form_game"
      fastest_secs[$ref]="$secs"
      echo "$form_game|$form (fastest form)|$upto|$secs|1.00|$(per_second $((upto + 1)) "$secs")|$engine" >> "$heap_rows"
    fi
    key="rewrite-${rewrite%.game}"
    note "$rewrite ($game) to $upto"
    time_table "$key" "$games/rewrites/$rewrite" "$game"
    if is_number "$secs" && is_number "${fastest_secs[$ref]}" \
      && [ "$(values "$out/$key.txt")" != "$(values "$out/$ref.txt")" ]; then
      note "  $rewrite: its values differ from $form's (see $out/$key.txt)"
      secs="mismatch"; status=1
    fi
    echo "$form_game|$rewrite|$upto|$secs|$(ratio "$secs" "${fastest_secs[$ref]}")|$(per_second $((upto + 1)) "$secs")|$engine" >> "$heap_rows"
  done < "$games/rewrites/forms.txt"
fi

# --- general search -----------------------------------------------------------
search_rows="$out/search.rows"
echo "game|position|seconds|positions searched|positions/s|bytes/position|engine (--stats)" > "$search_rows"

# time_search NAME FILE POSITION: times a value search with --stats.
time_search() {
  local name="$1" file="$2" position="$3" key
  key="search-$(echo "$name" | tr -c 'a-zA-Z0-9\n' '-')"
  note "$name: $position"
  measure "$key" "$out/$key.txt" "$grundy_bin" value "$games/$file" "$position" --stats \
    --max-states 2000000000
  local searched="-" rate="-" bytes="-"
  if is_number "$secs" && [ -s "$out/$key.txt.err" ]; then
    read -r searched rate bytes < <(awk '/^stats: [0-9]+ positions searched/ {
      s = $2; r = $8; sub(/\(/, "", r); b = $0; sub(/.*\(/, "", b); sub(/ bytes\/position.*/, "", b)
      print s, r, b }' "$out/$key.txt.err" | tail -n 1) || true
  fi
  echo "$name|$position|$secs|${searched:--}|${rate:--}|${bytes:--}|$(engines_of "$out/$key.txt.err")" >> "$search_rows"
}

if [ "$search" = 1 ]; then
  if [ "$quick" = 1 ]; then
    cram_a=(4 4); cram_b=(3 6); chomp=(6 5); wythoff=60; coins=10; cells=16; pile=7
  else
    cram_a=(5 5); cram_b=(4 6); chomp=(12 10); wythoff=300; coins=20; cells=28; pile=15
  fi
  time_search "Cram ${cram_a[0]}x${cram_a[1]}" cram.game "Cram($(grid "${cram_a[@]}"))"
  time_search "Cram ${cram_b[0]}x${cram_b[1]}" cram.game "Cram($(grid "${cram_b[@]}"))"
  time_search "Chomp ${chomp[0]}x${chomp[1]}, grid" chomp-grid.game "Chomp($(grid "${chomp[@]}"))"
  time_search "Chomp ${chomp[0]}x${chomp[1]}, heights" chomp-heights.game "Chomp([$(repeated "${chomp[0]}" "${chomp[1]}")])"
  time_search "Wythoff ${wythoff}x${wythoff}" wythoff.game "Wythoff($wythoff, $wythoff)"
  time_search "Mock Turtles, $coins coins" mock-turtles.game "Turtles(repeat(\"H\", $coins))"
  time_search "Treblecross, $cells cells" treblecross.game "Treblecross(repeat(\".\", $cells))"
  time_search "Moore's Nim k=2, 5 piles of $pile" moores-nim.game "Moore(2, [$(repeated "$pile" 5)])"
fi

# --- report -------------------------------------------------------------------
echo
if [ "$heaps" = 1 ]; then print_table "$heap_rows"; echo; fi
if [ "$search" = 1 ]; then print_table "$search_rows"; echo; fi
echo "log: ${log#"$root"/}"
exit "$status"
