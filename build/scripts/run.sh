#!/usr/bin/env bash
# Starts the desktop app. Without a display, runs it under Xvfb, saves a screenshot, and says how
# to use AgentDesk here instead: from a browser, through `agentdesk serve`.
set -euo pipefail
bin=$1
if [ -n "${DISPLAY:-}" ] || [ -n "${WAYLAND_DISPLAY:-}" ]; then
  echo "==> starting $bin"
  exec "$bin"
fi
echo "==> no display found: starting AgentDesk under Xvfb once, for a screenshot"
bash "$(dirname "$0")/desktop-smoke.sh" "$bin" build/screenshot.png
cat <<MSG

The window opened and painted under Xvfb (see build/screenshot.png), then closed: this machine
has no display to keep it on. To use AgentDesk here, serve it to a browser:

    $bin serve

and open the address it prints (http://127.0.0.1:8765/?token=…) in a browser on this machine.
Add --addr 127.0.0.1:PORT for another port; '$bin --help' lists every command.
MSG
