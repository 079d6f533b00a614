#!/usr/bin/env bash
# Builds the Debian package of the command line and the window with nfpm (build/package/nfpm.yaml).
# Usage: package.sh NFPM CLI_BINARY DESKTOP_BINARY WEBKIT(4.0|4.1) OUTDIR
# Prints the path of the .deb it wrote.
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
# Debian wants a changelog in every package; this one names what the package was built from.
CHANGELOG=$work/changelog.gz
{
  echo "agentdesk ($PKG_VERSION) unstable; urgency=medium"
  echo
  echo "  * Built from commit $(git rev-parse --short=12 HEAD) for WebKitGTK $webkit."
  echo
  echo " -- AgentDesk maintainers <maintainers@agentdesk.dev>  $(git log -1 --format=%aD)"
} | gzip -9n > "$CHANGELOG"
export BIN DESKTOP_BIN WEBKIT_RUNTIME DEB_ARCH PKG_VERSION CHANGELOG
mkdir -p "$outdir"
deb="$outdir/agentdesk_${PKG_VERSION}_${DEB_ARCH}.deb"
"$nfpm" package --config build/package/nfpm.yaml --packager deb --target "$deb" >&2
echo "$deb"
