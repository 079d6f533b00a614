#!/usr/bin/env bash
# Installs what a fresh Debian/Ubuntu machine lacks, with sudo when not root.
#   setup.sh        to build and run AgentDesk: system packages and the frontend's locked npm packages
#   setup.sh test   also what only the tests use: Chromium, git, the ACP conformance fixture and the
#                   MCP reference servers (backend/mcp/testdata/node), WebKitGTK 4.1 beside 4.0, and
#                   the packaging checks' tools (lintian, desktop-file-validate, appstreamcli,
#                   apparmor_parser)
set -euo pipefail
cd "$(dirname "$0")/../.."
purpose=${1:-run}

# The WebKitGTK the Makefile builds against (its WEBKIT): one already installed, else 4.0 where
# the release still ships it (Debian 12, Ubuntu 22.04), else 4.1.
webkit_dev() {
  for v in 4.0 4.1; do
    if dpkg-query -W -f='${Status}' "libwebkit2gtk-$v-dev" 2>/dev/null | grep -q "install ok installed"; then
      echo "libwebkit2gtk-$v-dev"; return
    fi
  done
  if apt-cache show libwebkit2gtk-4.0-dev >/dev/null 2>&1; then echo libwebkit2gtk-4.0-dev; else echo libwebkit2gtk-4.1-dev; fi
}

packages=(build-essential pkg-config libgtk-3-dev "$(webkit_dev)" xvfb xauth dbus xdotool x11-utils imagemagick curl fonts-wqy-microhei)
npm_dirs=(frontend)
if [ "$purpose" = test ]; then
  packages+=(git chromium libwebkit2gtk-4.1-dev lintian desktop-file-utils appstream apparmor)
  npm_dirs+=(backend/acp/testdata/node backend/mcp/testdata/node)
fi

missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if ((${#missing[@]})); then
  echo "setup: installing ${#missing[@]} system packages with apt-get (a minute or two): ${missing[*]}"
  sudo=""
  [ "$(id -u)" -eq 0 ] || sudo="sudo"
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
else
  echo "setup: system packages present"
fi

command -v go >/dev/null || { echo "setup: Go 1.26 or later is required (https://go.dev/dl)"; exit 1; }
command -v npm >/dev/null || { echo "setup: Node.js 20 and npm are required"; exit 1; }

# npm ci only when a lock file changed since the last install.
for dir in "${npm_dirs[@]}"; do
  [ -f "$dir/package-lock.json" ] || continue
  if [ ! -f "$dir/node_modules/.package-lock.json" ] || [ "$dir/package-lock.json" -nt "$dir/node_modules/.package-lock.json" ]; then
    echo "setup: npm ci in $dir"
    (cd "$dir" && npm ci --no-audit --no-fund --loglevel=error)
  fi
done
