#!/usr/bin/env bash
# Renders the app icon (build/package/linux/icons/hicolor/scalable/apps/dev.agentdesk.AgentDesk.svg) into the hicolor
# PNG sizes. The PNGs are committed, so building and packaging need no SVG renderer; run this
# (`make icons`) after changing the SVG. rsvg-convert is in Debian's librsvg2-bin.
set -euo pipefail
cd "$(dirname "$0")/../package/linux/icons"
id=dev.agentdesk.AgentDesk
command -v rsvg-convert >/dev/null || { echo "icons: rsvg-convert is missing (apt-get install librsvg2-bin)"; exit 1; }
svg=hicolor/scalable/apps/$id.svg
for size in 16 24 32 48 64 128 256 512; do
  mkdir -p "hicolor/${size}x${size}/apps"
  rsvg-convert -w "$size" -h "$size" "$svg" -o "hicolor/${size}x${size}/apps/$id.png"
done
echo "icons: rendered $id into hicolor/{16..512}"
