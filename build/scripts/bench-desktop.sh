#!/usr/bin/env bash
# The desktop rows of issue 11: the real window under Xvfb (as desktop-smoke.sh starts it), on an
# empty data folder and on a copy of the scale folder. Each launch is timed from the start of the
# process until the window says its composer is drawn (the line the app writes when
# AGENTDESK_BENCH_MARKS is set, app/window_marks.go), and the resident memory of the app and its
# WebKit processes is read at that moment. One warm-up launch per folder, then RUNS launches
# each, alternating; the medians are printed against the goals: composer <= 1.2 x the empty
# folder's, memory <= the empty folder's + 50 MB.
# Usage: bench-desktop.sh BINARY [RUNS]   (the scale folder: $AGENTDESK_SCALE_DATA)
# A missed goal is reported, not failed; the exit status is non-zero only when a launch breaks.
set -euo pipefail
if [ "${1:-}" != --under-xvfb ]; then
  bin=$(realpath "$1")
  runs=${2:-${AGENTDESK_BENCH_RUNS:-5}}
  scale=${AGENTDESK_SCALE_DATA:-${XDG_CACHE_HOME:-$HOME/.cache}/agentdesk-bench/year}
  [ -f "$scale/scale-manifest.json" ] || { echo "bench-desktop: $scale holds no folder built by build/gendata" >&2; exit 1; }
  work=$(mktemp -d)
  trap 'rm -rf "$work"' EXIT
  # The app writes to the folder it opens (its checkpoint store, the check record, a migration
  # and its backup after an upgrade): the shared scale folder is copied, with its files' times,
  # so the copy's check record still names it and it opens as the original would.
  mkdir -p "$work/empty" "$work/year"
  start=$(date +%s%3N)
  find "$scale" -maxdepth 1 -type f -exec cp -p {} "$work/year/" \;
  echo "bench-desktop: $scale copied in $(($(date +%s%3N) - start)) ms" >&2
  sessions=$(sed -n 's/.*"sessions": *\([0-9]*\).*/\1/p' "$scale/scale-manifest.json")
  env bin="$bin" runs="$runs" work="$work" sessions="$sessions" \
    xvfb-run -a -s "-screen 0 1280x800x24" bash "$0" --under-xvfb
  exit
fi

# The resident memory, in kB, of a process and all its descendants (WebKit's web and network
# processes are the app's children).
tree_rss() {
  ps -e -o pid=,ppid=,rss= | awk -v root="$1" '
    { parent[$1] = $2; rss[$1] = $3 }
    END {
      for (p in parent) {
        for (q = p; q != "" && q != 0 && q != 1; q = parent[q]) if (q == root) { sum += rss[p]; break }
      }
      print sum + 0
    }'
}

tree_pids() {
  ps -e -o pid=,ppid= | awk -v root="$1" '
    { parent[$1] = $2 }
    END { for (p in parent) for (q = p; q != "" && q != 0 && q != 1; q = parent[q]) if (q == root) { print p; break } }'
}

# launch FOLDER: starts the window on FOLDER and prints "MS KB": the time to the composer and the
# memory then. The app's own config and caches live in the run's folder, not the machine's.
launch() {
  local data=$1 log="$work/app.log" mark="" line pid t0 deadline
  : >"$log"
  t0=$(date +%s%3N)
  AGENTDESK_BENCH_MARKS=1 LANG=en_US.UTF-8 XDG_CONFIG_HOME="$work/xdg/config" XDG_CACHE_HOME="$work/xdg/cache" \
    XDG_DATA_HOME="$work/xdg/data" "$bin" --data-dir "$data" >"$log" 2>&1 &
  pid=$!
  deadline=$((t0 + 300000))
  while [ -z "$mark" ]; do
    while IFS= read -r line; do
      if [[ $line == "agentdesk-bench: composer drawn at "* ]]; then mark=${line##* }; break; fi
    done <"$log"
    [ -n "$mark" ] && break
    if ! kill -0 "$pid" 2>/dev/null; then
      echo "bench-desktop: the app exited before drawing its composer:" >&2; cat "$log" >&2; return 1
    fi
    if [ "$(date +%s%3N)" -gt "$deadline" ]; then
      echo "bench-desktop: no composer within 300 s" >&2; break
    fi
    sleep 0.05
  done
  local kb
  kb=$(tree_rss "$pid")
  local children
  children=$(tree_pids "$pid")
  kill "$pid" 2>/dev/null || true
  for _ in $(seq 1 100); do kill -0 "$pid" 2>/dev/null || break; sleep 0.05; done
  kill -9 "$pid" $children 2>/dev/null || true
  wait "$pid" 2>/dev/null || true
  [ -n "$mark" ] || { echo "- $kb"; return 0; }
  echo "$((mark - t0)) $kb"
}

median() { sort -n | awk '{ v[NR] = $1 } END { if (NR == 0) print "-"; else if (NR % 2) print v[(NR + 1) / 2]; else print (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }

row() { # name measured goal ratio mark
  printf '%-52s %14s %14s %8s %s\n' "$@"
}

launch "$work/empty" >/dev/null
launch "$work/year" >/dev/null
: >"$work/empty.txt"
: >"$work/year.txt"
for _ in $(seq 1 "$runs"); do
  launch "$work/empty" >>"$work/empty.txt"
  launch "$work/year" >>"$work/year.txt"
done

missed=$(cat "$work/empty.txt" "$work/year.txt" | awk '$1 == "-"' | wc -l)
e_ms=$(awk '$1 != "-" { print $1 }' "$work/empty.txt" | median)
y_ms=$(awk '$1 != "-" { print $1 }' "$work/year.txt" | median)
[ "$(awk '$1 == "-"' "$work/year.txt" | wc -l)" -eq 0 ] || y_ms=-
e_kb=$(awk '{ print $2 }' "$work/empty.txt" | median)
y_kb=$(awk '{ print $2 }' "$work/year.txt" | median)

ratio() { awk -v n="$1" -v b="$2" 'BEGIN { if (n == "-" || b == "-" || b == 0) print "-"; else printf "%.3f", n / b }'; }
ok() { awk -v r="$1" 'BEGIN { if (r == "-") print "✗"; else print (r <= 1 ? "✓" : "✗") }'; }

printf '\n%-52s %14s %14s %8s\n' "desktop figure (median of $runs)" measured goal ratio
row "desktop: composer drawn, empty folder" "$e_ms ms" - -
goal_ms=$(awk -v e="$e_ms" 'BEGIN { if (e == "-") print "-"; else printf "%.0f", e * 1.2 }')
r=$(ratio "$y_ms" "$goal_ms")
row "desktop: composer drawn, $sessions sessions" "$y_ms ms" "$goal_ms ms" "$r" "$(ok "$r")"
row "desktop: memory at the composer, empty folder" "$((${e_kb%.*} / 1024)) MB" - -
goal_kb=$(awk -v e="$e_kb" 'BEGIN { printf "%.0f", e + 50 * 1024 }')
r=$(ratio "$y_kb" "$goal_kb")
row "desktop: memory at the composer, $sessions sessions" "$((${y_kb%.*} / 1024)) MB" "$((goal_kb / 1024)) MB" "$r" "$(ok "$r")"
row "  samples, empty (ms, MB)" "$(awk '{ printf "%s%s/%d", (NR > 1 ? " " : ""), $1, $2 / 1024 }' "$work/empty.txt")" - -
row "  samples, $sessions sessions (ms, MB)" "$(awk '{ printf "%s%s/%d", (NR > 1 ? " " : ""), $1, $2 / 1024 }' "$work/year.txt")" - -
printf 'load average after the desktop figures: %s\n' "$(cut -d' ' -f1-3 /proc/loadavg)"
[ "$missed" -eq 0 ] || echo "bench-desktop: $missed launch(es) drew no composer within 300 s" >&2
