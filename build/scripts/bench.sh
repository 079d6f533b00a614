#!/usr/bin/env bash
# Runs every benchmark in one process run and prints each against its budget, side by side.
set -euo pipefail
cd "$(dirname "$0")/../.."
# The scale benchmarks run on a folder of a year of use, 10,000 sessions and 1,000,000
# events, built once by build/gendata through the store's own API and kept outside the repo.
export AGENTDESK_SCALE_DATA=${AGENTDESK_SCALE_DATA:-${XDG_CACHE_HOME:-$HOME/.cache}/agentdesk-bench/year}
echo "scale folder: $AGENTDESK_SCALE_DATA (built once; several minutes the first time)" >&2
go run ./build/gendata "$AGENTDESK_SCALE_DATA" >&2
# The browser and the window open the folder itself: at the store's schema (a copy migrated once
# beside an older one), or every launch would first migrate and back up a year of events.
current=$(go run ./build/gendata -current "$AGENTDESK_SCALE_DATA")
declare -A budget=(
  [BenchmarkEvaluate]=1000            # a gate decision: 1 µs
  [BenchmarkFold100k]=20000000        # the mode fold over 100,000 events: 20 ms
  [BenchmarkToolCallOverhead]=500000  # gate + persist + emit per tool call, end to end (its answer logged too), in steps of 1 and of 8 calls: 0.5 ms
  [BenchmarkScaleSessionsList]=100000000 # `sessions list --json` over 10,000 sessions (the 100 most recent), store opened: 100 ms
  [BenchmarkScaleModeInForce]=1000000    # the mode in force of a 100,000-event session: 1 ms
  [BenchmarkScaleModelStep]=20000000     # one model step in a 100,000-event session, AgentDesk's own work: 20 ms
  [BenchmarkScaleSessionsPage]=20000000  # the first page of the list the window asks for: 20 ms of the 150 ms first screen
  [BenchmarkScaleLogPage]=50000000       # the newest page of a 100,000-event log: 50 ms of the 300 ms first screen
  [BenchmarkGateWithShell]=250000     # a bash call through the gate, shell analysis and expansion included: 250 µs
  [BenchmarkGateLongBraces]=5000000   # a 16 KB command of brace lists through the gate, past the expansion's bounds: 5 ms
  [BenchmarkCheckpointIncremental]=100000000 # a snapshot of 10,000 files / 200 MB with 10 changed: 100 ms
  [BenchmarkOfferedNoServers]=200000  # what MCP adds to every model request with no server: 200 µs
  [BenchmarkStdioCall]=10000000       # an MCP call to a running stdio server, listing re-read and pins checked: 10 ms
  [BenchmarkConnectRoundTrip]=1000000 # a command's CONNECT through the network proxy's socket, policy, check, dial and one echo: 1 ms
  [BenchmarkRoute]=50000              # the Smart router on one request of its corpus: 50 µs
  [BenchmarkCreateTask10k]=1000000000 # a task's own worktree of a 10,000-file repository, over a task in the folder itself: 1 s
  [BenchmarkAgentSandboxStart]=50000000 # what the sandbox adds to an external agent's start, bare and sandboxed alternating: 50 ms
)
# Budgets on the difference between two lines of one run: what the second adds to the first.
declare -A overhead=(
  # The sandbox per command, as the desktop build runs it (the embedded static helper, which
  # also supervises every command, in its own namespaces where the kernel allows), over the same
  # start unsandboxed: 10 ms.
  [BenchmarkShellStart/embedded-helper]="BenchmarkShellStart/embedded-helper-unsandboxed 10000000"
  # The same through a re-execution of the (pure-Go) test binary, for comparison.
  [BenchmarkShellStart/sandboxed]="BenchmarkShellStart/unsandboxed 10000000"
  # All AgentDesk adds to a shell started bare (the supervising helper included), shown too.
  [BenchmarkShellStart/embedded-helper-unsandboxed]="BenchmarkShellStart/bare -"
)
declare -A measured=()
out=$(go test -run='^$' -bench=. -benchmem -count=1 ./backend/... ./app/cli/ | tee /dev/stderr | grep '^Benchmark' || true)
printf '\nload average while measuring: %s\n' "$(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null || uptime)"
printf '\n%-40s %14s %14s %8s\n' benchmark ns/op budget ratio
while read -r name _ ns _; do
  base=${name%-*}
  measured[$base]=$ns
  b=${budget[${base%%/*}]:-}
  if [ -n "$b" ]; then
    printf '%-40s %14s %14s %8s\n' "$base" "$ns" "$b" "$(awk -v n="$ns" -v b="$b" 'BEGIN{printf "%.3f", n/b}')"
  else
    printf '%-40s %14s %14s %8s\n' "$base" "$ns" "-" "-"
  fi
done <<<"$out"
for name in "${!overhead[@]}"; do
  read -r from b <<<"${overhead[$name]}"
  [ -n "${measured[$name]:-}" ] && [ -n "${measured[$from]:-}" ] || continue
  d=$(awk -v a="${measured[$name]}" -v f="${measured[$from]}" 'BEGIN{printf "%.0f", a-f}')
  ratio=-
  [ "$b" = - ] || ratio=$(awk -v n="$d" -v b="$b" 'BEGIN{printf "%.3f", n/b}')
  printf '%-40s %14s %14s %8s\n' "${name} - ${from##*/}" "$d" "$b" "$ratio"
done
# The Smart router on its labelled corpus (English and Chinese, proposal-only phrasings and keyword
# traps included): the share routed as labelled, and proposal-only requests routed elsewhere.
printf '\n'
go test -count=1 -run '^TestRouterCorpusReport$' -v ./backend/mode/ | grep -E '^router corpus:|^  miss:'
# Writers on one data folder, as long as the issue measured them (60 s each): operations tried
# and failures, against a goal of 0 failures.
secs=${AGENTDESK_STRESS_SECONDS:-60}
printf '\nwriters on one data folder for %ss each (goal: 0 failed)\n' "$secs"
AGENTDESK_STRESS_SECONDS=$secs go test -count=1 -run 'NeverFail' -v ./backend/store/ ./app/cli/ \
  | grep -E 'operations tried|runs, [0-9]+ failed|^(FAIL|ok)'
# The browser and desktop rows, each figure beside its goal: Chromium against
# `agentdesk serve`, then the real window under Xvfb, both on copies of the scale folder (the
# app writes to the folder it opens). A missed goal is printed, not failed. The browser rows also
# hold the scroll-back: a page's cost at the 10th and the 400th older page of the 100,000-event
# session, and the most rows the transcript held on the way.
bin=build/bin/agentdesk desktop=build/bin/agentdesk-desktop
# The window against a bare Wails app and Chromium --app on the same UI, in one X session with
# the launches alternating (window mapped, composer drawn, UI at rest, PSS).
printf '\nstartup: the window, a bare Wails v2 app and Chromium --app, alternating under Xvfb\n'
xvfb-run -a -s "-screen 0 1280x800x24" node frontend/bench/startup.mjs --bin "$desktop" --bare build/bin/benchbare \
  --runs "${AGENTDESK_STARTUP_RUNS:-9}" --smaps
printf '\nbrowser: Chromium (playwright-core) against agentdesk serve\n'
node frontend/bench/browser.mjs --data "$current" --bin "$bin"
printf '\ndesktop: the window under Xvfb, from launch to its composer drawn\n'
AGENTDESK_SCALE_DATA=$current bash build/scripts/bench-desktop.sh "$desktop"
# What a terminal command pays at start, from the command line (no GTK or WebKit) and from the
# desktop build.
bash build/scripts/bench-start.sh "$bin" "$desktop"
