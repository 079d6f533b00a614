#!/usr/bin/env bash
# Checks that a desktop binary links the WebKitGTK API it was built for and that
# `agentdesk doctor --json` names that same API.
# Usage: webkit-check.sh BINARY 4.0|4.1
set -euo pipefail
bin=$1 want=$2
lib=$(ldd "$bin" | grep -o 'libwebkit2gtk-4\.[01]' | sort -u)
[ "$lib" = "libwebkit2gtk-$want" ] || { echo "webkit-check: $bin links '${lib:-no WebKitGTK}', not libwebkit2gtk-$want"; exit 1; }
data=$(mktemp -d)
trap 'rm -rf "$data"' EXIT
# doctor exits non-zero for any failed check; only its report matters here.
said=$({ "$bin" doctor --json --data-dir "$data" || true; } | sed -n 's/^  "webkitgtk": "\(.*\)",$/\1/p')
[ "$said" = "$want" ] || { echo "webkit-check: doctor says WebKitGTK '${said}', not $want"; exit 1; }
echo "webkit-check: $bin links libwebkit2gtk-$want and doctor says so"
