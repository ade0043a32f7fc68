#!/usr/bin/env bash
# How much the speed of a game searched whole depends on how it is
# written: every rewrite in bench/games/search-rewrites/ (Cram, Chomp,
# Wythoff's game, Mock Turtles, Treblecross and Moore's Nim written as a
# newcomer would, from the language guide) is timed with `grundy value
# FILE POSITION --stats` against its game's shipped form in bench/games/,
# in the same run, at a size where the shipped form takes 0.5 to 5
# seconds. Both must give the same value before a time is shown. One
# table shows each rewrite's seconds, its ratio to the shipped form, the
# engines `--stats` names, what turned a faster engine down, and PASS or
# MISS against 1.5x.
#
#   bench/search-rewrites.sh                 # the sizes below: many minutes when rewrites fall off
#   bench/search-rewrites.sh --quick         # small sizes: a few seconds once built
#   bench/search-rewrites.sh --only wythoff --runs 5
#
# Options:
#   --quick           small sizes and one run (Cram 3x4, Chomp 5x4, Wythoff 40, 8 coins,
#                     12 cells, five piles of 4), for trying the script
#   --only WORD       only the rewrites whose file name holds WORD
#   --runs R          time each command R times, the median counts (default 3);
#                     a command whose first run takes over --once SECS runs once
#   --once SECS       (default 10)
#   --timeout SECS    give up on one run after SECS seconds (default 300): a
#                     rewrite stopped there is a MISS
#
# The sizes (the shipped forms take 0.5 to 2 seconds each, alone on a 2-core
# machine): Cram 4x6, Chomp 10x9 on a grid and 11x9 as heights, Wythoff
# 300x300, Mock Turtles on 16 heads, Treblecross on 24 empty cells, Moore's
# Nim k = 2 on five piles of 12.
#
# Outputs, the exact commands and a log go to bench/out/search-rewrites/
# (log.txt); the rows for bench/run.sh to bench/out/search-rewrites/targets.txt.
# Exit status: 1 when a rewrite's value differs from its shipped form's,
# else 0 (a MISS is a finding, not a failure).
here="$(cd "$(dirname "$0")" && pwd)"
# shellcheck source=bench/lib.sh
. "$here/lib.sh"
bench_setup

cram=(4 6); chomp_grid=(10 9); chomp_heights=(11 9); wythoff=300; coins=16; cells=24; pile=12
# small_sizes: the sizes of --quick.
small_sizes() { cram=(3 4); chomp_grid=(5 4); chomp_heights=(5 4); wythoff=40; coins=8; cells=12; pile=4; }
only=""
runs=3
once=10
timeout_s=300
while [ $# -gt 0 ]; do
  case "$1" in
    --quick) small_sizes; runs=1; shift ;;
    --only) only="$2"; shift 2 ;;
    --runs) runs="$2"; shift 2 ;;
    --once) once="$2"; shift 2 ;;
    --timeout) timeout_s="$2"; shift 2 ;;
    -h|--help) usage "$0"; exit 0 ;;
    *) echo "search-rewrites.sh: unknown argument '$1' (try --help)" >&2; exit 2 ;;
  esac
done
whole_numbers search-rewrites.sh "$runs" "$once" "$timeout_s"

out="$here/out/search-rewrites"
mkdir -p "$out"
log="$out/log.txt"
: > "$log"
targets="$out/targets.txt"
: > "$targets"
note "bench/search-rewrites.sh $*"
lib_init

note "building grundy (release)..."
cargo build --release --quiet --bin grundy
grundy_bin="$root/target/release/grundy"
games="$here/games"

# position FORM SHAPE: the position searched for a game's shipped FORM,
# written in SHAPE (see forms.txt).
position() {
  case "$1:$2" in
    cram.game:grid) echo "Cram($(grid "${cram[@]}"))" ;;
    chomp-grid.game:grid) echo "Chomp($(grid "${chomp_grid[@]}"))" ;;
    chomp-heights.game:heights) echo "Chomp([$(repeated "${chomp_heights[0]}" "${chomp_heights[1]}")])" ;;
    chomp-heights.game:rows) echo "Chomp([$(repeated "${chomp_heights[1]}" "${chomp_heights[0]}")])" ;;
    wythoff.game:pair) echo "Wythoff($wythoff, $wythoff)" ;;
    wythoff.game:tuple) echo "Wythoff(($wythoff, $wythoff))" ;;
    wythoff.game:list) echo "Wythoff([$wythoff, $wythoff])" ;;
    mock-turtles.game:str) echo "Turtles(\"$(repeated H "$coins" "")\")" ;;
    mock-turtles.game:list) echo "Turtles([$(repeated 1 "$coins")])" ;;
    mock-turtles.game:bools) echo "Turtles([$(repeated true "$coins")])" ;;
    treblecross.game:str) echo "Treblecross(\"$(repeated . "$cells" "")\")" ;;
    treblecross.game:bools) echo "Treblecross([$(repeated false "$cells")])" ;;
    moores-nim.game:moore) echo "Moore(2, [$(repeated "$pile" 5)])" ;;
    *) echo "search-rewrites.sh: forms.txt: no shape '$2' for $1" >&2; exit 2 ;;
  esac
}

# size FORM: the size searched, in words, for the tables.
size() {
  case "$1" in
    cram.game) echo "${cram[0]}x${cram[1]}" ;;
    chomp-grid.game) echo "${chomp_grid[0]}x${chomp_grid[1]}" ;;
    chomp-heights.game) echo "${chomp_heights[0]}x${chomp_heights[1]}" ;;
    wythoff.game) echo "${wythoff}x${wythoff}" ;;
    mock-turtles.game) echo "$coins coins" ;;
    treblecross.game) echo "$cells cells" ;;
    moores-nim.game) echo "k=2, 5 piles of $pile" ;;
  esac
}

# The shape each shipped form is written in.
declare -A shipped_shape=(
  [cram.game]=grid [chomp-grid.game]=grid [chomp-heights.game]=heights [wythoff.game]=pair
  [mock-turtles.game]=str [treblecross.game]=str [moores-nim.game]=moore
)

# time_value KEY FILE POSITION: times the search; sets $secs, $value,
# $engine and $stopped.
time_value() {
  local key="$1"
  time_one "$key" "$out/$key.txt" "$grundy_bin" value "$2" "$3" --stats --max-states 2000000000
  value="-"
  if is_number "$secs"; then value=$(head -n 1 "$out/$key.txt"); fi
  engine=$(engines_of "$out/$key.txt.err")
  stopped=$(stopped_by "$out/$key.txt.err")
}

# engine_when_small FORM SHAPE FILE: a search stopped at the time limit
# says nothing of its engines, so the same rewrite is asked again at the
# --quick size, where it finishes; sets $engine and $stopped from that.
engine_when_small() {
  local small err="$out/small.err"
  small=$(small_sizes; position "$1" "$2")
  "$grundy_bin" value "$3" "$small" --stats --max-states 2000000000 >/dev/null 2>"$err" || true
  engine="$(engines_of "$err") (at $small)"
  stopped=$(stopped_by "$err")
}

rows="$out/rows"
echo "form|size|seconds|ratio to shipped|value|engine (--stats)|turned down by|within 1.5x" > "$rows"
declare -A shipped_secs=() shipped_value=()
status=0
while read -r rewrite form shape _; do
  case "$rewrite" in ""|"#"*) continue ;; esac
  [ -z "$only" ] || [[ "$rewrite" == *"$only"* ]] || continue
  if [ -z "${shipped_secs[$form]:-}" ]; then
    where=$(position "$form" "${shipped_shape[$form]}")
    note "$form: $where"
    time_value "shipped-${form%.game}" "$games/$form" "$where"
    shipped_secs[$form]="$secs"; shipped_value[$form]="$value"
    echo "$form (shipped)|$(size "$form")|$secs|1.00|$value|${engine:--}|${stopped:--}|-" >> "$rows"
  fi
  where=$(position "$form" "$shape")
  note "$rewrite: $where"
  time_value "rewrite-${rewrite%.game}" "$games/search-rewrites/$rewrite" "$where"
  r="$(ratio "$secs" "${shipped_secs[$form]}")"
  result="$(verdict "$r" "<=" 1.5)"
  if is_number "$secs" && [ "$value" != "${shipped_value[$form]}" ]; then
    note "  $rewrite: value $value, but $form's is ${shipped_value[$form]}"
    secs="mismatch"; r="-"; result="MISS (a different value)"; status=1
  elif [ "$secs" = timeout ]; then
    engine_when_small "$form" "$shape" "$games/search-rewrites/$rewrite"
    secs="over $timeout_s"; result="MISS"
    is_number "${shipped_secs[$form]}" && r="over $(ratio "$timeout_s" "${shipped_secs[$form]}")"
  fi
  echo "$rewrite|$(size "$form")|$secs|$r|$value|${engine:--}|${stopped:--}|$result" >> "$rows"
  ( IFS='|'; echo "search-rewrite|${form%.game}: $rewrite within 1.5x the shipped form|$(size "$form")|grundy $secs s|shipped ${shipped_secs[$form]} s|$r|<= 1.5|$result" ) >> "$targets"
done < "$games/search-rewrites/forms.txt"

echo
print_table "$rows"
echo
echo "seconds: median of $runs whole-process run(s) (one above $once s) of \`grundy value FILE POSITION --stats\`; ratio: the"
echo "rewrite / its shipped form, in the same run (PASS within 1.5x); commands: ${log#"$root"/}"
exit "$status"
