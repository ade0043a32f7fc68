# shellcheck shell=bash
# Timing and reporting helpers for bench/run.sh (sourced, not run).
#
# The caller sets: $root (the repository), $out (the output folder), $log
# (the log file), $runs (how many times measure runs a command), $timeout_s
# (the limit of one run), and calls lib_init once before timing anything.
# shellcheck disable=SC2154  # those variables are the caller's

# bench_setup: what every script here starts with, once it has found its
# folder ($here) and sourced this file: strict mode, the C locale, and the
# repository ($root) as the working folder. The binaries are run from the
# repository's target folders, so a target folder moved elsewhere would
# leave them stale: the variables that move it are unset.
bench_setup() {
  set -euo pipefail
  export LC_ALL=C
  unset CARGO_TARGET_DIR CARGO_BUILD_TARGET_DIR
  root="$(cd "$here/.." && pwd)"
  cd "$root"
}

# note TEXT...: a line on standard error and in the log.
note() { echo "$*" | tee -a "$log" >&2; }

# lib_init: finds /usr/bin/time (peak memory) and timeout (a limit per run).
lib_init() {
  have_time=""
  [ -x /usr/bin/time ] && have_time=1
  have_timeout=""
  if command -v timeout >/dev/null 2>&1; then have_timeout=1; fi
}

# shown_command CMD...: the command as one line a shell reads back the same
# way, for the log.
shown_command() {
  local s
  s=$(printf '%q ' "$@")
  s="${s% }"
  echo "${s//"$root"\//}"
}

# run_once OUTFILE ERRFILE LIMIT SIGNAL CMD...: runs CMD with its standard
# output to OUTFILE and standard error to ERRFILE, stopped with SIGNAL after
# LIMIT seconds, and prints "STATUS SECONDS PEAK_KB" with STATUS one of ok,
# timeout or failed (PEAK_KB is 0 without /usr/bin/time). Wall seconds come
# from bash's clock (microseconds); /usr/bin/time is asked only for the peak.
run_once() {
  local outfile="$1" errfile="$2" limit_s="$3" signal="$4"; shift 4
  local tfile="$out/.time"
  local limit=() wrap=()
  [ -n "$have_timeout" ] && limit=(timeout -s "$signal" "$limit_s")
  [ -n "$have_time" ] && wrap=(/usr/bin/time -f "%M" -o "$tfile")
  local status=0 start end peak=0 how=ok
  rm -f "$tfile"
  start=$EPOCHREALTIME
  "${limit[@]}" "${wrap[@]}" "$@" >"$outfile" 2>"$errfile" || status=$?
  end=$EPOCHREALTIME
  if [ "$status" = 124 ]; then how=timeout; elif [ "$status" != 0 ]; then how=failed; fi
  # /usr/bin/time may write a note ("Command exited with ...") before its
  # figure: the last line holds it.
  if [ -s "$tfile" ]; then peak=$(tail -n 1 "$tfile"); fi
  case "$peak" in ""|*[!0-9]*) peak=0 ;; esac
  awk -v h="$how" -v a="$start" -v b="$end" -v p="$peak" 'BEGIN { printf "%s %.3f %d\n", h, b - a, p }'
}

# median SECONDS...: the median of the figures given.
median() {
  printf '%s\n' "$@" | sort -g | awk '{a[NR]=$1} END {
    if (NR == 0) { print "-"; exit }
    if (NR % 2) print a[(NR+1)/2]; else printf "%.3f\n", (a[NR/2] + a[NR/2+1]) / 2 }'
}

# measure NAME OUTFILE CMD...: runs CMD $runs times (each limited to
# $timeout_s), keeps the first run's output in OUTFILE, and sets $secs (the
# median, or "timeout"/"failed") and $peak_kb (the largest peak).
measure() {
  local name="$1" outfile="$2"; shift 2
  measure_first "$name" "$outfile" "$@" || return 0
  measure_more "$name" "$runs" "$@"
}

# measure_first NAME OUTFILE CMD...: the first run of measure, alone (for
# choosing which methods are worth more runs); sets $secs, $peak_kb and
# $first_secs; fails when the run did.
measure_first() {
  local name="$1" outfile="$2"; shift 2
  local how t p
  note "  \$ $(shown_command "$@")"
  read -r how t p < <(run_once "$outfile" "$outfile.err" "$timeout_s" TERM "$@")
  cat "$outfile.err" >>"$log"
  if [ "$how" != ok ]; then
    note "  $name: $how after $t s"
    secs="$how"; peak_kb=0; first_secs=""
    return 1
  fi
  secs="$t"; peak_kb="$p"; first_secs="$t"
}

# measure_more NAME R CMD...: after measure_first, runs CMD until it has run
# R times in all, and sets $secs to the median and $peak_kb to the largest.
measure_more() {
  local name="$1" want="$2"; shift 2
  local times=("$first_secs") peak="$peak_kb" r how t p
  for ((r = 2; r <= want; r++)); do
    read -r how t p < <(run_once /dev/null /dev/null "$timeout_s" TERM "$@")
    if [ "$how" != ok ]; then
      note "  $name: run $r $how after $t s"
      secs="$how"; peak_kb=0
      return 0
    fi
    times+=("$t")
    [ "$p" -gt "$peak" ] && peak="$p"
  done
  secs=$(median "${times[@]}")
  peak_kb=$peak
  note "  $name: ${times[*]} s -> median $secs s, peak $((peak / 1024)) MB"
}

# time_one NAME OUTFILE CMD...: measure, but a command whose first run
# takes over $once seconds (the caller sets $once) is not run again.
time_one() {
  local name="$1" outfile="$2"; shift 2
  measure_first "$name" "$outfile" "$@" || return 0
  if less "$once" "$first_secs"; then
    note "  $name: $first_secs s, over ${once}s: one run"
  else
    measure_more "$name" "$runs" "$@"
  fi
}

# is_number X: whether X is a figure (not "-", "timeout", "failed", ...).
is_number() { [[ "$1" =~ ^-?[0-9]+(\.[0-9]+)?$ ]]; }

# megabytes KB: KB in MB, to one place.
megabytes() { awk -v k="$1" 'BEGIN { printf "%.1f", k / 1024 }'; }

# ratio A B: A / B to two places, or "-" when either is not a figure.
ratio() {
  if ! is_number "$1" || ! is_number "$2"; then echo "-"; return; fi
  awk -v a="$1" -v b="$2" 'BEGIN { if (b > 0) printf "%.2f", a / b; else print "-" }'
}

# less A B: whether figure A is below figure B.
less() { awk -v a="$1" -v b="$2" 'BEGIN { exit !(a < b) }'; }

# verdict FIGURE OP LIMIT: PASS when FIGURE OP LIMIT holds (OP is "<" or
# "<="), MISS when it does not, n/a when there is no figure.
verdict() {
  is_number "$1" || { echo "n/a"; return; }
  awk -v a="$1" -v op="$2" -v b="$3" 'BEGIN {
    ok = (op == "<") ? (a < b) : (a <= b); print ok ? "PASS" : "MISS" }'
}

# power_of_ten N: 10^K when N is a power of ten, else N.
power_of_ten() {
  if [[ "$1" =~ ^10*$ ]] && [ "${#1}" -gt 3 ]; then echo "10^$((${#1} - 1))"; else echo "$1"; fi
}

# print_table FILE: the rows of FILE (cells separated by "|") as a markdown
# table with padded columns; the first row is the heading.
print_table() {
  awk -F'|' '
    { rows[NR] = $0; for (i = 1; i <= NF; i++) if (length($i) > w[i]) w[i] = length($i); if (NF > nf) nf = NF }
    END {
      for (r = 1; r <= NR; r++) {
        n = split(rows[r], c, "|"); line = "|"
        for (i = 1; i <= nf; i++) line = line sprintf(" %-" w[i] "s |", c[i])
        print line
        if (r == 1) { line = "|"; for (i = 1; i <= nf; i++) { d = ""; for (k = 0; k < w[i]; k++) d = d "-"; line = line " " d " |" } print line }
      }
    }' "$1"
}

# grid ROWS COLUMNS: a grid of empty cells, as the language writes it.
grid() {
  local row r s=""
  row=$(printf '%*s' "$2" '' | tr ' ' '.')
  for ((r = 0; r < $1; r++)); do s+="${s:+, }\"$row\""; done
  echo "[$s]"
}

# repeated ITEM COUNT [SEPARATOR]: ITEM, COUNT times, separated by ", "
# (or SEPARATOR).
repeated() {
  local i s="" sep="${3-, }"
  for ((i = 0; i < $2; i++)); do s+="${s:+$sep}$1"; done
  echo "$s"
}

# engines_of ERRFILE: the engines --stats named in ERRFILE, shortened
# ("Game: path, ...").
engines_of() {
  awk '/^stats: [^ ]+ ran on / {
      name = $2; sub(/^stats: [^ ]+ ran on (the )?/, "")
      if (sub(/heap kernel \(octal /, "kernel ")) sub(/\)$/, "")
      sub(/heap kernel \(rules read as take-and-break moves\)/, "kernel (rules)")
      sub(/heap-rule reader/, "reader"); sub(/compiled search of packed keys/, "compiled")
      sub(/reference interpreter/, "interpreter")
      line = line (line ? ", " : "") name ": " $0 }
    END { print line }' "$1" 2>/dev/null || true
}

# stopped_by ERRFILE: what --stats says turned the compiled search down,
# shortened: "`CONSTRUCT` (FILE:LINE:COLUMN): WHY" (WHY up to its first
# colon), several separated by "; ".
stopped_by() {
  sed -n 's/^stats:   the compiled search of packed keys stopped at \(.*\) (\([^()]*\/\)\{0,1\}\([^()/]*\)): \([^:]*\).*/\1 (\3): \4/p' \
    "$1" 2>/dev/null | paste -sd ';' - | sed 's/;/; /g'
}

# usage SCRIPT: prints the comment block at the top of SCRIPT (its help).
usage() { awk 'NR > 1 && /^#/ { sub(/^# ?/, ""); print; next } NR > 1 { exit }' "$1"; }

# whole_numbers NAME VALUE...: exits with status 2 unless every VALUE is
# a positive whole number (NAME says whose option it was).
whole_numbers() {
  local name="$1" number; shift
  for number in "$@"; do
    case "$number" in ""|*[!0-9]*|0) echo "$name: '$number' is not a positive whole number" >&2; exit 2 ;; esac
  done
}
