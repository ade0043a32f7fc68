#!/usr/bin/env bash
# Checks every speed and memory target of grundy's benchmarks in one run
# and prints one table of them, each with its figure, what it is compared
# with, the ratio, the goal and PASS or MISS. Every program's values are
# checked against the others' before its time is shown. The rows, by the
# group in their first column:
#
#   rewrite   every rewrite in bench/games/rewrites/ (the same heap games as
#             a newcomer writes them) within 1.5x its game's fastest form
#             (bench/rewrites.sh, at --rewrites-upto, default 10^5)
#   10x       no heap game slower than 10x the hand-written baseline
#             (bench/baseline, its best method): the fastest forms and every
#             rewrite at --rewrites-upto, and the games of the heap rows
#   search    the general search (bench/search.sh): Cram 5x5 and 4x6 on a
#             grid, Chomp 12x10 as a grid and as column heights, Wythoff
#             300x300, Mock Turtles on 20 coins, Treblecross on 28 cells,
#             Moore's Nim k = 2 on five piles of 15, each within 2x its
#             hand-written solver (bench/search-baseline; the goal is 1.2x)
#             and at most 12 bytes a stored position
#   unseen    a game the engine was not tuned on: Node Kayles on a 5x6 grid
#             graph as the language guide teaches it
#             (bench/games/node-kayles.game) against a hand-written solver,
#             under the same 2x and 12 bytes (bench/search.sh); not one of
#             the targets above, a check on games written by other hands:
#             its rows read "info (PASS at 2x)" and are not counted
#   search-rewrite  every rewrite in bench/games/search-rewrites/ (the games
#             searched whole, as a newcomer writes them) within 1.5x its
#             game's shipped form in bench/games/, at a size where that
#             takes a second or two (bench/search-rewrites.sh)
#   symmetry  Cram 5x5 with its symmetries declared
#             (bench/games/cram-symmetric.game) stores at most a third of
#             the positions it stores without (n/a when that file is missing
#             or does not check)
#   quoted    no figure docs/performance.md quotes gets worse: each figure
#             listed in bench/quoted.txt, measured again in this run (the
#             rows below), against the figure quoted, with the allowance for
#             noise given there
#   heap, resume, memory: the targets behind those quoted figures:
#     heap    Kayles (0.77), Dawson's Chess (0.137), 0.007 and Grundy's game
#             written as rules: `grundy table FILE GAME --upto N
#             --no-shortcut` within 1.2x the baseline's best of --method
#             mask, bytes and rc, and faster than ogsolve's best of naive, rc
#             and rc2 (ogsolve has no Grundy's game); 0.16 to 10^7 and 0.6 to
#             10^6 faster than `ogsolve -m rc`. The time with the period
#             shortcut on is shown in rows of its own, as information.
#     resume  Grundy's game to 10^8 with --checkpoint: the run is stopped
#             part-way (SIGINT, as Ctrl-C, after half the baseline's time),
#             then the same command is run again and resumes; the two runs'
#             wall time together within 1.2x the baseline's rc, and the
#             output the baseline's values. One run of each.
#     memory  grundy's peak resident memory at each game's largest N, less
#             that of a run to N/10, over the 0.9 N values between (the fixed
#             costs cancel): at most 4 bytes a value.
#   kept      Moore's Nim [15,15,15,15] and Treblecross on 20 cells, the
#             general-search sizes docs/performance.md quotes: within 2x the
#             hand-written solver and at most 32 bytes a stored position
#
#   bench/run.sh            # every target: several hours on a shared 2-core machine
#   bench/run.sh --quick    # small sizes, one run each, no 10^8 run: a minute or two once built
#   bench/run.sh --no-long --no-search --no-rewrites --sizes 100000   # the heap games at 10^5 only
#
# Options:
#   --quick               sizes 20000, 0.16 to 10^6, 0.6 to 10^5, one run, no
#                         10^8 run, a small search; other options override it
#   --sizes LIST          N for the heap rows (default 100000,1000000)
#   --grundy-sizes LIST   N for Grundy's game in them (default: --sizes)
#   --size-0.16 N         N for 0.16 (default 10000000)
#   --size-0.6 N          N for 0.6 (default 1000000)
#   --games LIST          which heap games (default kayles,dawsons-chess,0.007,grundy,0.16,0.6)
#   --long | --no-long    run the resume rows or not (default: run it, except with --quick)
#   --long-size N         N for the resume rows (default 100000000)
#   --long-stop SECS      stop its first run after SECS seconds
#                         (default: half the baseline's time, at least 1)
#   --search | --no-search  run the search, symmetry and kept rows or not (default: run them)
#   --search-args "ARGS"  more arguments for bench/search.sh, such as
#                         "--cram 4x4 --coins 12" (--quick passes --quick)
#   --rewrites | --no-rewrites  run the rewrite and 10x rows or not (default: run them)
#   --rewrites-upto N     N for the rewrites (default 100000; --quick 500)
#   --rewrites-timeout S  give up on one rewrite's table after S seconds
#                         (default 600; --quick 60): a MISS
#   --search-rewrites | --no-search-rewrites  run the search-rewrite rows or not
#                         (default: run them)
#   --search-rewrites-timeout S  give up on one search-rewrite run after S
#                         seconds (default 300; --quick 60): a MISS
#   --runs R              time each command R times and report the median (default 3)
#   --baseline-methods L  the baseline's methods to try (default mask,bytes,rc)
#   --ogsolve-methods L   ogsolve's methods to try (default naive,rc,rc2)
#   --timeout SECS        give up on a single run after SECS seconds (default
#                         1800; the 10^8 runs of the resume rows may want more
#                         on a busy machine)
#
# The full run's time goes mostly to the other programs at 10^6: ogsolve's
# three methods are quadratic on Kayles, Dawson's Chess and 0.007 (minutes
# each; about 1.5 hours together with the repeats), the baseline's mask and
# bytes methods take about a minute each; the resume rows take 20 to 30
# minutes; rewrites the heap-rule reader cannot read and general-search
# games grundy runs on its reference interpreter take up to their time
# limits.
#
# Where a program has several methods, each is run once, and only those
# within 1.25x of the fastest first run are run the other R - 1 times: a
# method slower than that is not the best, and ogsolve's naive method alone
# takes minutes at 10^6. The best median counts.
#
# Seconds are wall-clock seconds of the whole process (start-up, parsing and
# printing the values included), read from bash's clock; peak memory comes
# from /usr/bin/time when it is present. grundy prints its plain table (not
# --json, whose document costs memory of its own); `baseline digest` reads
# it. Outputs, the exact commands and a log go to bench/out/ (log.txt).
# Exit status: 1 when programs disagree on the values, else 0 (a MISS is a
# finding, not a failure).
here="$(cd "$(dirname "$0")" && pwd)"
# shellcheck source=bench/lib.sh
. "$here/lib.sh"
bench_setup

# --- options ----------------------------------------------------------------
quick=0
for arg in "$@"; do [ "$arg" = --quick ] && quick=1; done
if [ "$quick" = 1 ]; then
  sizes="20000"; runs=1; size_016=1000000; size_06=100000; long=0
  search_args="--quick"; rewrites_upto=500; rewrites_timeout=60; search_rewrites_timeout=60
else
  sizes="100000,1000000"; runs=3; size_016=10000000; size_06=1000000; long=1
  search_args=""; rewrites_upto=100000; rewrites_timeout=600; search_rewrites_timeout=300
fi
rewrites=1
search_rewrites=1
grundy_sizes=""
only="kayles,dawsons-chess,0.007,grundy,0.16,0.6"
long_size=100000000
long_stop=""
search=1
base_methods="mask,bytes,rc"
og_methods="naive,rc,rc2"
timeout_s=1800
while [ $# -gt 0 ]; do
  case "$1" in
    --quick) shift ;;
    --sizes) sizes="$2"; shift 2 ;;
    --grundy-sizes) grundy_sizes="$2"; shift 2 ;;
    --size-0.16) size_016="$2"; shift 2 ;;
    --size-0.6) size_06="$2"; shift 2 ;;
    --games) only="$2"; shift 2 ;;
    --long) long=1; shift ;;
    --no-long) long=0; shift ;;
    --long-size) long_size="$2"; shift 2 ;;
    --long-stop) long_stop="$2"; shift 2 ;;
    --search) search=1; shift ;;
    --no-search) search=0; shift ;;
    --search-args) search_args="$2"; shift 2 ;;
    --rewrites) rewrites=1; shift ;;
    --no-rewrites) rewrites=0; shift ;;
    --rewrites-upto) rewrites_upto="$2"; shift 2 ;;
    --rewrites-timeout) rewrites_timeout="$2"; shift 2 ;;
    --search-rewrites) search_rewrites=1; shift ;;
    --no-search-rewrites) search_rewrites=0; shift ;;
    --search-rewrites-timeout) search_rewrites_timeout="$2"; shift 2 ;;
    --runs) runs="$2"; shift 2 ;;
    --baseline-methods) base_methods="$2"; shift 2 ;;
    --ogsolve-methods) og_methods="$2"; shift 2 ;;
    --timeout) timeout_s="$2"; shift 2 ;;
    -h|--help) awk 'NR > 1 && /^#/ { sub(/^# ?/, ""); print; next } NR > 1 { exit }' "$0"; exit 0 ;;
    *) echo "run.sh: unknown argument '$1' (try --help)" >&2; exit 2 ;;
  esac
done
[ -n "$grundy_sizes" ] || grundy_sizes="$sizes"
for list in "$sizes" "$grundy_sizes"; do
  case "$list" in ""|*[!0-9,]*|,*|*,|*,,*) echo "run.sh: sizes are numbers such as 100000,1000000" >&2; exit 2 ;; esac
done
for number in "$size_016" "$size_06" "$long_size" "$runs" "$timeout_s" "$rewrites_upto" "$rewrites_timeout" \
  "$search_rewrites_timeout" \
  ${long_stop:+"$long_stop"}; do
  case "$number" in ""|*[!0-9]*|0) echo "run.sh: '$number' is not a positive whole number" >&2; exit 2 ;; esac
done
sizes="${sizes//,/ }"
grundy_sizes="${grundy_sizes//,/ }"
base_methods="${base_methods//,/ }"
og_methods="${og_methods//,/ }"

out="$here/out"
mkdir -p "$out"
log="$out/log.txt"
: > "$log"
note "bench/run.sh $*"

# --- build ------------------------------------------------------------------
note "building grundy (release) and the baseline..."
cargo build --release --quiet --bin grundy
cargo build --release --quiet --manifest-path "$here/baseline/Cargo.toml"
grundy_bin="$root/target/release/grundy"
baseline_bin="$here/baseline/target/release/baseline"

tools="$here/.tools"
ogsolve_version="0.0.7"
ogsolve_bin="$tools/bin/ogsolve"
if [ ! -x "$ogsolve_bin" ]; then
  # The version this script was written against first, so that runs on
  # different days compare the same program; the newest if that fails.
  note "installing ogsolve $ogsolve_version from crates.io into bench/.tools..."
  if ! cargo install --quiet --locked ogsolve --version "$ogsolve_version" --root "$tools" 2>>"$log" \
    && ! cargo install --quiet --locked ogsolve --root "$tools" 2>>"$log" \
    && ! cargo install --quiet ogsolve --root "$tools" 2>>"$log"; then
    note "ogsolve could not be installed: its targets are left n/a"
  fi
fi
[ -x "$ogsolve_bin" ] || ogsolve_bin=""
if [ -n "$ogsolve_bin" ]; then
  note "ogsolve: $(sed -n 's/^"\(ogsolve [^ ]*\) .*/\1/p' "$tools/.crates.toml" 2>/dev/null || true)"
fi

lib_init
note "timing with $([ -n "$have_time" ] && echo /usr/bin/time || echo "bash's clock (no peak memory)"), median of $runs run(s); each run limited to ${timeout_s}s"
[ -n "$have_timeout" ] || note "no 'timeout' command: runs are not limited, and the resume rows cannot stop their first run"
note "machine: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo 2>/dev/null | cut -d: -f2- | sed 's/^ *//')"
note "grundy $(git -C "$root" rev-parse --short HEAD 2>/dev/null || echo '?')$(git -C "$root" diff --quiet -- src 2>/dev/null || echo ' (with uncommitted changes in src/)'), $(rustc --version)"

# --- checking the values ------------------------------------------------------------
# Each game and size has one reference: the first digest made (the
# baseline's, as it runs first). Every other program's values must match it
# before its time is shown.
ref_digest=""
ref_name=""
mismatch=0

# agrees NAME DIGEST: whether DIGEST (checksum, largest value, last 1000
# values, as `baseline` prints them) is the reference's.
agrees() {
  if [ -z "$ref_digest" ]; then
    ref_digest="$2"; ref_name="$1"
    return 0
  fi
  if cmp -s "$ref_digest" "$2"; then
    note "  $1 agrees with $ref_name (checksum, largest value, last 1000 values)"
    return 0
  fi
  note "  MISMATCH: $1 and $ref_name disagree: diff $2 $ref_digest"
  mismatch=1
  return 1
}

# check_grundy NAME OUTFILE: digests grundy's table and compares it.
check_grundy() {
  "$baseline_bin" digest "$2" >"$2.digest" 2>>"$log" || { note "  $1: its output cannot be read"; mismatch=1; return 1; }
  agrees "$1" "$2.digest"
}

# check_ogsolve NAME OUTFILE: ogsolve prints g(N) and a checksum (the same
# Fletcher-32 as the baseline's): both must be the reference's.
check_ogsolve() {
  if [ -z "$ref_digest" ]; then note "  $1: nothing to check it against"; return 1; fi
  local want_sum want_last got
  want_sum=$(sed -n 's/^checksum //p' "$ref_digest")
  want_last=$(sed -n 's/^last [0-9]*: //p' "$ref_digest" | awk '{print $NF}')
  got=$(grep -o "nimber of $cur_n: [0-9]*  .*checksum: [0-9A-F]*" "$2" || true)
  if [ "$(echo "$got" | sed -n 's/.*checksum: //p')" = "$want_sum" ] \
    && [ "$(echo "$got" | sed -n "s/nimber of $cur_n: \([0-9]*\) .*/\1/p")" = "$want_last" ]; then
    note "  $1 agrees (checksum $want_sum, g($cur_n) = $want_last)"
    return 0
  fi
  note "  MISMATCH: $1: '$got', $ref_name: checksum $want_sum, g($cur_n) = $want_last"
  mismatch=1
  return 1
}

# --- timing ---------------------------------------------------------------------
# best_of NAME TAG "METHODS" CHECK CMD...: runs CMD with @M@ replaced by each
# method, checks each output with CHECK NAME OUTFILE, runs the contenders
# (see the header) R times, and sets $best_secs and $best_method ("-" and ""
# when none ran and agreed).
best_of() {
  local name="$1" tag="$2" methods="$3" check="$4"; shift 4
  local m fastest=""
  local -A first=() peaks=()
  best_secs="-"; best_method=""
  for m in $methods; do
    if measure_first "$name $m" "$out/$tag-$m.txt" "${@//@M@/$m}" \
      && "$check" "$name $m" "$out/$tag-$m.txt"; then
      first[$m]="$first_secs"; peaks[$m]="$peak_kb"
      if [ -z "$fastest" ] || less "$first_secs" "$fastest"; then fastest="$first_secs"; fi
    fi
  done
  for m in $methods; do
    [ -n "${first[$m]:-}" ] || continue
    if less "$(awk -v f="$fastest" 'BEGIN { print 1.25 * f }')" "${first[$m]}"; then
      if [ "$runs" -gt 1 ]; then note "  $name $m: ${first[$m]} s, over 1.25x the fastest: not run again"; fi
      continue
    fi
    first_secs="${first[$m]}"; peak_kb="${peaks[$m]}"
    measure_more "$name $m" "$runs" "${@//@M@/$m}"
    is_number "$secs" || continue
    if [ "$best_secs" = "-" ] || less "$secs" "$best_secs"; then best_secs="$secs"; best_method="$m"; fi
  done
}

# max_states N: --max-states for a table of N + 1 heaps (its default is smaller).
max_states() { echo $(( 2 * $1 + 2 > 100000000 ? 2 * $1 + 2 : 100000000 )); }

# time_grundy NAME TAG N [ARGS...]: times `grundy table` on the current game
# to N, checks its values, and sets $secs (or "mismatch") and $peak_kb. A
# table of 10^7 or more heaps is deleted once digested.
time_grundy() {
  local name="$1" outfile="$out/$2.txt" n="$3"; shift 3
  measure "$name" "$outfile" "$grundy_bin" table "$file" "$game" --upto "$n" \
    --max-states "$(max_states "$n")" "$@"
  if is_number "$secs" && ! check_grundy "$name" "$outfile"; then secs="mismatch"; fi
  if [ "$n" -ge 10000000 ]; then rm -f "$outfile"; fi
}

# small_peak N: grundy's peak memory in KB on the current game to N. The
# memory rows take the peak of a run to a tenth of the heaps off, so that what is
# left is what the other nine tenths cost: every fixed cost (the program,
# buffers sized by the largest value, the output) cancels. Like the run to N,
# whose peak is the largest of its --runs runs, it runs --runs times and
# gives the largest peak: a peak swings by a few hundred KB from run to run,
# and the largest of several against one run would count the swing as cost.
small_peak() {
  local how t p largest=0 i cmd=("$grundy_bin" table "$file" "$game" --upto "$1" --no-shortcut \
    --max-states "$(max_states "$1")")
  note "  \$ $(shown_command "${cmd[@]}")   (the constant of the memory rows, $runs runs)"
  for ((i = 0; i < runs; i++)); do
    read -r how t p < <(run_once /dev/null /dev/null "$timeout_s" TERM "${cmd[@]}")
    if [ "${p:-0}" -gt "$largest" ]; then largest="$p"; fi
  done
  echo "$largest"
}

rows="$out/targets.txt"
echo "#|target|N|grundy|compared with|ratio|goal|result" >"$rows"
# row TARGET WHAT N GRUNDY AGAINST RATIO GOAL RESULT: one row of the table.
row() { local IFS='|'; echo "$*" >>"$rows"; }

# seconds_cell PROGRAM SECS [METHOD]: "PROGRAM [METHOD] SECS s", or what went wrong.
seconds_cell() {
  local what="$1${3:+ $3}"
  if is_number "$2"; then echo "$what $2 s"; else echo "$what: $2"; fi
}

# memory_row GROUP LABEL N PEAK_KB: the memory row of one run. Peaks swing by a
# few hundred KB from run to run, so below 10^6 heaps the figure is noise:
# it is shown, as information only.
memory_row() {
  local small tenth per result
  tenth=$(($3 / 10))
  small=$(small_peak "$tenth")
  per="-"
  if [ "$4" -gt 0 ] && [ "$small" -gt 0 ]; then
    per=$(awk -v p="$4" -v t="$small" -v n="$3" -v m="$tenth" 'BEGIN { printf "%.2f", (p - t) * 1024 / (n - m) }')
  fi
  result="$(verdict "$per" "<=" 4)"
  [ "$3" -ge 1000000 ] || result="info (N < 10^6)"
  row "$1" "$2: bytes per heap value (peak less a run to N/10, over the 0.9 N values between)" \
    "$(power_of_ten "$3")" "peak $(megabytes "$4") MB, to N/10: $(megabytes "$small") MB" "-" \
    "$per" "<= 4" "$result"
}

# --- heap and 10x: the heap games ------------------------------------------------
# key | label | .game file | game | baseline arguments | ogsolve code ("" = none) | target
games=(
  "kayles|Kayles (0.77)|kayles.game|Kayles|octal 0.77|0.77|1"
  "dawsons-chess|Dawson's Chess (0.137)|dawsons-chess.game|DawsonsChess|octal 0.137|0.137|1"
  "0.007|0.007|triple.game|Triple|octal 0.007|0.007|1"
  "grundy|Grundy's game (rules)|grundys-game.game|Grundy|grundy||1"
  "0.16|0.16|one-six.game|OneSix|octal 0.16|0.16|2"
  "0.6|0.6|six.game|Six|octal 0.6|0.6|2"
)

memory=()
for spec in "${games[@]}"; do
  IFS='|' read -r key label file game base_args og_code target <<<"$spec"
  case ",$only," in *",$key,"*) ;; *) continue ;; esac
  file="$here/games/$file"
  case "$key" in
    grundy) these="$grundy_sizes" ;;
    0.16) these="$size_016" ;;
    0.6) these="$size_06" ;;
    *) these="$sizes" ;;
  esac
  largest=0; largest_peak=0
  for n in $these; do
    note "$label, N = $n"
    tag="$key-$n"
    ref_digest=""; ref_name=""
    cur_n="$n"
    if [ "$target" = 1 ]; then b_methods="$base_methods"; o_methods="$og_methods"; else b_methods="rc"; o_methods="rc"; fi

    # shellcheck disable=SC2086  # the baseline's arguments are words
    best_of "baseline --method" "$tag.baseline" "$b_methods" agrees "$baseline_bin" $base_args "$n" --method @M@
    b_secs="$best_secs"; b_method="$best_method"

    time_grundy "grundy table --no-shortcut" "$tag.grundy" "$n" --no-shortcut
    g_secs="$secs"
    if is_number "$g_secs" && [ "$n" -ge "$largest" ]; then largest="$n"; largest_peak="$peak_kb"; fi
    s_secs="-"
    if [ "$target" = 1 ]; then
      time_grundy "grundy table (shortcut on)" "$tag.grundy-shortcut" "$n"
      s_secs="$secs"
    fi

    o_secs="-"; o_method=""
    if [ -n "$og_code" ] && [ -n "$ogsolve_bin" ]; then
      best_of "ogsolve -m" "$tag.ogsolve" "$o_methods" check_ogsolve "$ogsolve_bin" "$og_code" -n "$n" -m @M@
      o_secs="$best_secs"; o_method="$best_method"
    fi

    shown_n="$(power_of_ten "$n")"
    grundy_cell="$(seconds_cell grundy "$g_secs")"
    r="$(ratio "$g_secs" "$b_secs")"
    row 10x "$label: within 10x the baseline's best" "$shown_n" "$grundy_cell" \
      "$(seconds_cell baseline "$b_secs" "$b_method")" "$r" "<= 10" "$(verdict "$r" "<=" 10)"
    if [ "$target" = 1 ]; then
      r="$(ratio "$g_secs" "$b_secs")"
      row heap "$label: within 1.2x the baseline's best" "$shown_n" "$grundy_cell" \
        "$(seconds_cell baseline "$b_secs" "$b_method")" "$r" "<= 1.2" "$(verdict "$r" "<=" 1.2)"
      if [ -n "$og_code" ]; then
        r="$(ratio "$g_secs" "$o_secs")"
        row heap "$label: faster than ogsolve's best" "$shown_n" "$grundy_cell" \
          "$(seconds_cell ogsolve "$o_secs" "$o_method")" "$r" "< 1" "$(verdict "$r" "<" 1)"
      fi
      row heap "$label: period shortcut on (not a target)" "$shown_n" "$(seconds_cell grundy "$s_secs")" \
        "$(seconds_cell baseline "$b_secs" "$b_method")" "$(ratio "$s_secs" "$b_secs")" "-" "info"
    else
      r="$(ratio "$g_secs" "$o_secs")"
      row heap "$label: faster than ogsolve's rc" "$shown_n" "$grundy_cell" \
        "$(seconds_cell ogsolve "$o_secs" "$o_method")" "$r" "< 1" "$(verdict "$r" "<" 1)"
      row heap "$label: against the baseline's rc (not a target)" "$shown_n" "$grundy_cell" \
        "$(seconds_cell baseline "$b_secs" "$b_method")" "$(ratio "$g_secs" "$b_secs")" "-" "info"
    fi
  done
  if [ "$largest" -gt 0 ]; then memory+=("$label|$file|$game|$largest|$largest_peak"); fi
done

# --- resume: Grundy's game to 10^8, stopped and resumed -------------------------------
if [ "$long" = 1 ]; then
  n="$long_size"
  label="Grundy's game (rules)"
  file="$here/games/grundys-game.game"; game="Grundy"
  note "$label, N = $n, with --checkpoint, stopped and resumed (one run each)"
  ref_digest=""; ref_name=""
  runs_before="$runs"; runs=1
  best_of "baseline --method" "grundy-long-$n.baseline" "rc" agrees "$baseline_bin" grundy "$n" --method @M@
  runs="$runs_before"
  b_secs="$best_secs"

  stop="$long_stop"
  if [ -z "$stop" ]; then
    stop=60
    is_number "$b_secs" && stop=$(awk -v b="$b_secs" 'BEGIN { s = int(b / 2); print (s < 1) ? 1 : s }')
  fi
  ckpt="$out/grundy-long-$n.checkpoint"
  rm -f "$ckpt"
  cmd=("$grundy_bin" table "$file" "$game" --upto "$n" --no-shortcut --checkpoint "$ckpt" --max-states "$(max_states "$n")")
  outfile="$out/grundy-long-$n.grundy.txt"
  note "  \$ $(shown_command "${cmd[@]}")   (stopped with SIGINT after ${stop}s)"
  read -r how1 t1 p1 < <(run_once "$outfile" "$outfile.err1" "$stop" INT "${cmd[@]}")
  cat "$outfile.err1" >>"$log"
  stopped_at=$(sed -n 's/.*stopped after g(0\.\.=\([0-9]*\)).*/\1/p' "$outfile.err1" | tail -n 1)
  total="-"; long_peak=0; same="-"; resumed=""
  if [ "$how1" = timeout ] && [ -n "$stopped_at" ] && [ -s "$ckpt" ]; then
    note "  first run stopped after ${t1} s at g(0..=$stopped_at); the same command again:"
    note "  \$ $(shown_command "${cmd[@]}")"
    read -r how2 t2 p2 < <(run_once "$outfile" "$outfile.err2" "$timeout_s" TERM "${cmd[@]}")
    cat "$outfile.err2" >>"$log"
    if [ "$how2" = ok ]; then
      total=$(awk -v a="$t1" -v b="$t2" 'BEGIN { printf "%.3f", a + b }')
      long_peak=$(( p1 > p2 ? p1 : p2 ))
      resumed="stopped after ${t1} s at g(0..=$stopped_at), resumed ${t2} s"
      note "  resumed run: ${t2} s, total ${total} s"
      if check_grundy "grundy table --checkpoint (resumed)" "$outfile"; then
        same="identical"
        rm -f "$ckpt"
      else
        same="different"; total="mismatch"
      fi
    else
      note "  resumed run: $how2 after ${t2} s"
      total="$how2"
    fi
  elif [ "$how1" = ok ]; then
    note "  the first run finished in ${t1} s before the stop at ${stop}s: nothing was resumed"
    total="not stopped"
  else
    note "  the first run: $how1 after ${t1} s, no checkpoint to resume from"
    total="$how1"
  fi
  rm -f "$outfile"
  r="$(ratio "$total" "$b_secs")"
  row resume "$label, --checkpoint, stopped and resumed: within 1.2x the baseline's rc" "$(power_of_ten "$n")" \
    "$(seconds_cell grundy "$total")${resumed:+ ($resumed)}" "$(seconds_cell baseline "$b_secs" rc)" \
    "$r" "<= 1.2" "$(verdict "$r" "<=" 1.2)"
  case "$same" in identical) result="PASS" ;; different) result="MISS" ;; *) result="n/a" ;; esac
  row resume "$label, resumed output: the baseline's values" "$(power_of_ten "$n")" "$same" \
    "checksum, largest value, last 1000 values" "-" "identical" "$result"
  if [ "$long_peak" -gt 0 ]; then memory+=("$label, checkpointed|$file|$game|$n|$long_peak"); fi
fi

# --- memory -------------------------------------------------------------------
for entry in "${memory[@]}"; do
  IFS='|' read -r label file game n peak <<<"$entry"
  memory_row memory "$label" "$n" "$peak"
done

# run_part SCRIPT TABLE ARGS...: runs bench/SCRIPT with ARGS, its table to
# TABLE and its notes to the log; a failure (programs that disagree) marks
# the run.
run_part() {
  local script="$1" table="$2" status=0; shift 2
  note "  \$ bench/$script $*"
  "$here/$script" "$@" 2>&1 >"$table" | tee -a "$log" >&2 || status=$?
  cat "$table" >>"$log"
  [ "$status" = 0 ] || { note "  bench/$script exited with $status"; mismatch=1; }
}

# --- rewrite and 10x: the heap games as a newcomer writes them ---------------------------
# baseline_args GAME N: the baseline's arguments for a rewrites game, or
# nothing when it has none.
baseline_args() {
  case "$1" in
    Kayles) echo "octal 0.77" ;;
    DawsonsChess) echo "octal 0.137" ;;
    Triple) echo "octal 0.007" ;;
    Grundy) echo "grundy" ;;
    Sub) echo "octal 0.3033" ;;
    # No octal code: the baseline's own loop.
    Square) echo "square" ;;
    # Take any number (a 3 for every heap size), or split in two (the 4).
    Lasker) echo "octal 4.$(printf '%*s' "$2" '' | tr ' ' 3)" ;;
  esac
}

if [ "$rewrites" = 1 ]; then
  note "the rewrites: bench/rewrites.sh (its log: bench/out/rewrites/log.txt)"
  rewrites_table="$out/rewrites-table.md"
  run_part rewrites.sh "$rewrites_table" --upto "$rewrites_upto" --timeout "$rewrites_timeout"
  # Its table: | game | form | N | seconds | ratio to fastest | ...; the
  # columns are found by their headings.
  parsed=$(awk -F'|' '
    function trim(s) { gsub(/^ +| +$/, "", s); return s }
    /^\| *game *\| *form *\|/ { for (i = 2; i < NF; i++) col[trim($i)] = i; next }
    /^\| *-/ { next }
    /^\|/ && ("form" in col) && ("ratio to fastest" in col) {
      printf "%s|%s|%s|%s\n", trim($col["game"]), trim($col["form"]), trim($col["seconds"]), trim($col["ratio to fastest"])
    }' "$rewrites_table")
  shown_n="$(power_of_ten "$rewrites_upto")"
  [ -n "$parsed" ] || row rewrite "bench/rewrites.sh's table could not be read (bench/out/rewrites-table.md)" \
    "$shown_n" "-" "-" "-" "<= 1.5" "n/a"
  declare -A fastest=()
  while IFS='|' read -r game form g_s r; do
    [ -n "$game" ] || continue
    if [[ "$form" == *"(fastest"* ]]; then fastest[$game]="$g_s"; continue; fi
    result="$(verdict "$r" "<=" 1.5)"
    if [ "$g_s" = timeout ]; then
      g_s="over $rewrites_timeout"; result="MISS"
      is_number "${fastest[$game]:-}" && r="over $(ratio "$rewrites_timeout" "${fastest[$game]}")"
    fi
    row rewrite "$game: $form within 1.5x the fastest form" "$shown_n" "grundy $g_s s" \
      "fastest form ${fastest[$game]:--} s" "$r" "<= 1.5" "$result"
  done <<<"$parsed"

  # 10x: every form of each game against the baseline at the same N; the
  # fastest form's values must be the baseline's first.
  for game in $(cut -d'|' -f1 <<<"$parsed" | sort -u); do
    args="$(baseline_args "$game" "$rewrites_upto")"
    reason="the baseline has no such game"
    b_secs="-"; b_method=""
    if [ -n "$args" ]; then
      note "$game to $rewrites_upto: the baseline"
      ref_digest=""; ref_name=""
      # shellcheck disable=SC2086  # the baseline's arguments are words
      best_of "baseline --method" "rewrites-$game.baseline" "$base_methods" agrees \
        "$baseline_bin" $args "$rewrites_upto" --method @M@
      b_secs="$best_secs"; b_method="$best_method"
      reason="the baseline failed (bench/out/log.txt)"
      fast_out="$here/out/rewrites/$(awk -F'|' -v g="$game" '$1 == g && $2 ~ /fastest/ { sub(/\.game.*/, "", $2); print $2; exit }' <<<"$parsed").txt"
      if is_number "$b_secs" && ! check_grundy "grundy (the fastest form, bench/rewrites.sh)" "$fast_out"; then
        b_secs="mismatch"; reason="the values differ"
      fi
    fi
    while IFS='|' read -r g form g_s _; do
      [ "$g" = "$game" ] || continue
      r="$(ratio "$g_s" "$b_secs")"; result="$(verdict "$r" "<=" 10)"
      if [ "$g_s" = timeout ]; then
        g_s="over $rewrites_timeout"
        result="n/a (stopped at the limit)"
        if is_number "$b_secs"; then
          r="over $(ratio "$rewrites_timeout" "$b_secs")"
          less 10 "${r#over }" && result="MISS"
        fi
      fi
      is_number "$b_secs" || result="n/a ($reason)"
      row 10x "$game: $form within 10x the baseline's best" "$shown_n" "grundy $g_s s" \
        "$(seconds_cell baseline "$b_secs" "$b_method")" "$r" "<= 10" "$result"
    done <<<"$parsed"
  done
fi

# --- search, symmetry and kept: the general search -------------------------------------
# run_search GROUP ARGS...: runs bench/search.sh and adds the rows it wrote
# (bench/out/search-targets.txt) under GROUP (its own groups for "search").
run_search() {
  local group="$1"; shift
  run_part search.sh "$out/search-table-$group.md" "$@"
  if [ ! -s "$out/search-targets.txt" ]; then
    row "$group" "bench/search.sh wrote no rows: see bench/out/log.txt" "-" "-" "-" "-" "-" "n/a"
    return
  fi
  while IFS='|' read -r g what n grundy against r goal result; do
    if [ "$group" = kept ]; then
      g=kept
      # The goal these sizes were quoted with: 32 bytes a position.
      if [ "$goal" = "<= 12" ]; then goal="<= 32"; result="$(verdict "$r" "<=" 32)"; fi
    fi
    row "$g" "$what" "$n" "$grundy" "$against" "$r" "$goal" "$result"
  done <"$out/search-targets.txt"
}

if [ "$search" = 1 ]; then
  note "the general search: bench/search.sh (its log: bench/out/search-log.txt)"
  # The sizes docs/performance.md quotes first, then the targets'.
  run_search kept --games moore,treblecross --piles 15,15,15,15 --cells 20 --runs "$runs" --timeout "$timeout_s"
  # shellcheck disable=SC2086  # the extra arguments are words
  run_search search --runs "$runs" --timeout "$timeout_s" $search_args
fi

# --- search-rewrite: the games searched whole as a newcomer writes them -------------------
if [ "$search_rewrites" = 1 ]; then
  note "the rewrites of the games searched whole: bench/search-rewrites.sh (its log: bench/out/search-rewrites/log.txt)"
  set -- --runs "$runs" --timeout "$search_rewrites_timeout"
  [ "$quick" = 1 ] && set -- "$@" --quick
  run_part search-rewrites.sh "$out/search-rewrites-table.md" "$@"
  # Its rows are already this table's.
  if [ -s "$out/search-rewrites/targets.txt" ]; then
    cat "$out/search-rewrites/targets.txt" >>"$rows"
  else
    row search-rewrite "bench/search-rewrites.sh wrote no rows: see bench/out/log.txt" "-" "-" "-" "-" "<= 1.5" "n/a"
  fi
fi

# --- quoted: no figure docs/performance.md quotes gets worse ------------------------------
# Each line of bench/quoted.txt names a row of this table (its label and N),
# the column whose figure was quoted (ratio, or grundy: the seconds in that
# cell), the figure, and how far above it a figure still passes.
while IFS='|' read -r what n column quoted allowance; do
  case "$what" in ""|"#"*) continue ;; esac
  now=$(awk -F'|' -v w="$what" -v n="$n" -v c="$column" '
    NR > 1 && $2 == w && (n == "" || $3 == n) {
      f = (c == "grundy") ? $4 : $6
      if (match(f, /[0-9]+(\.[0-9]+)?/)) { print substr(f, RSTART, RLENGTH); exit }
    }' "$rows")
  r="$(ratio "${now:--}" "$quoted")"
  result="$(verdict "$r" "<=" "$allowance")"
  [ -n "$now" ] || result="n/a (not measured in this run)"
  row quoted "$what: $column ${n:+at $n }no worse than quoted" "${n:--}" "${now:--}" "quoted $quoted" \
    "$r" "<= $allowance" "$result"
done <"$here/quoted.txt"

# --- the table ----------------------------------------------------------------------------
{
  echo
  print_table "$rows"
  echo
  awk -F'|' 'NR > 1 { r = $8; sub(/ .*/, "", r); n[r]++ } END {
    printf "targets: %d PASS, %d MISS, %d n/a (rows marked info are not targets)\n", n["PASS"], n["MISS"], n["n/a"] }' "$rows"
  echo "seconds: median of $runs whole-process run(s) in this run (resume: one run each; rewrites:"
  echo "one run; search: one run above 30 s); ratio: grundy / the other (memory: bytes per value;"
  echo "search: bytes per position; symmetry: positions stored with / without; quoted: the figure now"
  echo "/ the figure quoted); baseline and ogsolve: their fastest method; commands: bench/out/log.txt"
} | tee -a "$log"

if [ "$mismatch" != 0 ]; then
  echo "some programs disagree on the values, or a benchmark failed: see $log" >&2
  exit 1
fi
