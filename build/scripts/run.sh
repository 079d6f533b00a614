#!/usr/bin/env bash
# Starts the desktop app. Without a display, runs it under Xvfb and saves a screenshot.
set -euo pipefail
bin=$1
if [ -n "${DISPLAY:-}" ] || [ -n "${WAYLAND_DISPLAY:-}" ]; then
  exec "$bin"
fi
echo "run: no display found; starting AgentDesk under Xvfb to take a screenshot"
bash "$(dirname "$0")/desktop-smoke.sh" "$bin" build/screenshot.png
echo "run: AgentDesk started under Xvfb; the screenshot is build/screenshot.png"
