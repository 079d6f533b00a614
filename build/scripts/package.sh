#!/usr/bin/env bash
# Builds the Debian packages with nfpm: agentdesk, the command line (build/package/nfpm.yaml),
# and agentdesk-desktop, the window (nfpm-desktop.yaml), which depends on it.
# Usage: package.sh NFPM CLI_BINARY DESKTOP_BINARY WEBKIT(4.0|4.1) OUTDIR
# Prints the paths of the two .deb files it wrote, the command line's first.
set -euo pipefail
nfpm=$(realpath "$1") webkit=$4 outdir=$(realpath -m "$5")
BIN=$(realpath "$2") DESKTOP_BIN=$(realpath "$3")
cd "$(dirname "$0")/../.."
case "$webkit" in
  4.0) WEBKIT_RUNTIME=libwebkit2gtk-4.0-37 ;;
  4.1) WEBKIT_RUNTIME=libwebkit2gtk-4.1-0 ;;
  *) echo "package: unknown WebKitGTK '$webkit'" >&2; exit 1 ;;
esac
DEB_ARCH=$(dpkg --print-architecture 2>/dev/null || go env GOARCH)
# A tag v1.2.3 gives 1.2.3; between tags, 0.1.0~git<commits>.<hash> sorts below the next
# release and above the builds before it.
if tag=$(git describe --tags --exact-match --match 'v[0-9]*' 2>/dev/null); then
  PKG_VERSION=${tag#v}
else
  PKG_VERSION="0.1.0~git$(git rev-list --count HEAD).$(git rev-parse --short HEAD)"
fi
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
# Debian wants a changelog in every package; it names what the package was built from.
changelog() {
  {
    echo "$1 ($PKG_VERSION) unstable; urgency=medium"
    echo
    echo "  * Built from commit $(git rev-parse --short=12 HEAD)$2."
    echo
    echo " -- AgentDesk maintainers <maintainers@agentdesk.dev>  $(git log -1 --format=%aD)"
  } | gzip -9n > "$work/$1.changelog.gz"
  echo "$work/$1.changelog.gz"
}
CHANGELOG=$(changelog agentdesk "")
DESKTOP_CHANGELOG=$(changelog agentdesk-desktop " for WebKitGTK $webkit")
export BIN DESKTOP_BIN WEBKIT_RUNTIME DEB_ARCH PKG_VERSION CHANGELOG DESKTOP_CHANGELOG
mkdir -p "$outdir"
for name in agentdesk agentdesk-desktop; do
  config=build/package/nfpm.yaml
  [ "$name" = agentdesk ] || config=build/package/nfpm-desktop.yaml
  deb="$outdir/${name}_${PKG_VERSION}_${DEB_ARCH}.deb"
  "$nfpm" package --config "$config" --packager deb --target "$deb" >&2
  echo "$deb"
done
