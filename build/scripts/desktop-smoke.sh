#!/usr/bin/env bash
# Starts the real desktop binary under Xvfb, waits for the window titled AgentDesk to map, checks
# its WM_CLASS and icon, checks that a second launch hands over to it,
# waits until it has painted the shell (not a blank background) and drawn its composer (the line
# the app writes when AGENTDESK_BENCH_MARKS is set), and saves a screenshot.
# Usage: desktop-smoke.sh BINARY OUT.png [FOLDER]  (FOLDER: opened as the launcher's %f would)
set -euo pipefail
bin=$(realpath "$1")
out=$(realpath -m "$2")
folder=${3:-}
mkdir -p "$(dirname "$out")"
data=$(mktemp -d)
trap 'rm -rf "$data"' EXIT

export bin out data folder
# A private session bus: the single-instance lock and notifications live there.
dbus-run-session -- xvfb-run -a -s "-screen 0 1280x800x24" bash -c '
  set -euo pipefail
  args=(--data-dir "$data")
  [ -z "$folder" ] || args+=("$folder")
  AGENTDESK_BENCH_MARKS=1 LANG=en_US.UTF-8 "$bin" "${args[@]}" >"$data/app.log" 2>&1 &
  pid=$!
  trap "kill $pid 2>/dev/null || true" EXIT
  if ! wid=$(timeout 30 xdotool search --sync --onlyvisible --name "^AgentDesk$" | head -n1); then
    echo "desktop-smoke: no window titled AgentDesk appeared"; cat "$data/app.log"; exit 1
  fi
  # A blank window has a handful of colours; the painted shell (text, icons, borders) has many.
  for _ in $(seq 1 60); do
    import -window "$wid" "$out"
    colours=$(identify -format %k "$out")
    [ "$colours" -ge 64 ] && break
    sleep 0.5
  done
  # The desktop pairs the window with its launcher and icon through WM_CLASS (the app id).
  class=$(xprop -id "$wid" WM_CLASS)
  case "$class" in *"\"dev.agentdesk.AgentDesk\""*) ;; *) echo "desktop-smoke: WM_CLASS is not the app id: $class"; exit 1 ;; esac
  xprop -id "$wid" _NET_WM_ICON | grep -q "^_NET_WM_ICON(CARDINAL) = " || { echo "desktop-smoke: the window has no icon"; exit 1; }
  echo "desktop-smoke: ${class}, with an icon"
  geometry=$(xdotool getwindowgeometry "$wid" | tr -s " " | tr "\n" " ")
  echo "desktop-smoke: window $wid mapped ($geometry), $colours colours painted"
  [ "$colours" -ge 64 ] || { echo "desktop-smoke: the window stayed blank"; cat "$data/app.log"; exit 1; }
  for _ in $(seq 1 60); do
    grep -q "^agentdesk-bench: composer drawn at " "$data/app.log" && break
    sleep 0.5
  done
  grep -q "^agentdesk-bench: composer drawn at " "$data/app.log" || { echo "desktop-smoke: no composer was drawn"; cat "$data/app.log"; exit 1; }
  echo "desktop-smoke: the composer is drawn"
  # Painted is not settled: give the shell a moment to load its data before the kept shot.
  sleep 2
  import -window "$wid" "$out"
  # A second launch on the same data folder brings this window forward and exits, before it
  # opens the store.
  LANG=en_US.UTF-8 "$bin" --data-dir "$data" >"$data/second.log" 2>&1 &
  second=$!
  for _ in $(seq 1 20); do kill -0 $second 2>/dev/null || break; sleep 0.5; done
  if kill -0 $second 2>/dev/null; then
    kill $second; echo "desktop-smoke: a second launch opened a window of its own"; cat "$data/second.log"; exit 1
  fi
  wait $second || { echo "desktop-smoke: a second launch failed"; cat "$data/second.log"; exit 1; }
  grep -q "already open" "$data/second.log" || { echo "desktop-smoke: a second launch said nothing"; cat "$data/second.log"; exit 1; }
  windows=$(xdotool search --onlyvisible --name "^AgentDesk$" | wc -l)
  [ "$windows" -eq 1 ] && kill -0 $pid || { echo "desktop-smoke: $windows windows after a second launch"; exit 1; }
  echo "desktop-smoke: a second launch handed over to the open window"
'
echo "desktop-smoke: screenshot saved to $out"
