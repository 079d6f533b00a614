#!/usr/bin/env bash
# What a terminal command pays at start: `sessions list` on an empty data folder, run from the
# command-line build (static, no GTK or WebKit) and from the desktop build (which loads them at
# every exec), interleaved in one run and printed side by side with each binary's size.
# Usage: bench-start.sh CLI_BINARY DESKTOP_BINARY [RUNS]
set -euo pipefail
cli=$1 desktop=$2 runs=${3:-${AGENTDESK_START_RUNS:-40}}
data=$(mktemp -d)
trap 'rm -rf "$data"' EXIT
"$cli" sessions list --data-dir "$data" >/dev/null # the first run creates the store
declare -A times=()
for bin in "$cli" "$desktop"; do "$bin" sessions list --data-dir "$data" >/dev/null; done # warm the page cache
for _ in $(seq "$runs"); do
  for bin in "$cli" "$desktop"; do
    t0=$(date +%s%N)
    "$bin" sessions list --data-dir "$data" >/dev/null
    times[$bin]+="$(( $(date +%s%N) - t0 )) "
  done
done
stats() { tr ' ' '\n' | grep . | sort -n | awk '{a[NR]=$1; s+=$1} END {printf "%.2f %.2f %.2f", a[int((NR+1)/2)]/1e6, s/NR/1e6, a[1]/1e6}'; }
printf '\nstart: `agentdesk sessions list` on an empty data folder, %s runs each, interleaved\n' "$runs"
printf '%-34s %10s %10s %10s %10s\n' build "size MB" "median ms" "mean ms" "min ms"
declare -A median=()
for bin in "$cli" "$desktop"; do
  read -r med mean min <<<"$(stats <<<"${times[$bin]}")"
  median[$bin]=$med
  size=$(awk -v b="$(stat -c %s "$bin")" 'BEGIN{printf "%.1f", b/1048576}')
  printf '%-34s %10s %10s %10s %10s\n' "$bin" "$size" "$med" "$mean" "$min"
done
awk -v c="${median[$cli]}" -v d="${median[$desktop]}" \
  'BEGIN{printf "%-34s %10s %10.2f %10s %10s\n", "desktop build - command line", "", d-c, "", ""; printf "%-34s %10s %10.2f\n", "desktop build / command line", "", d/c}'
