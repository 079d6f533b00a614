#!/usr/bin/env bash
# Builds the two .deb files, the command line and the window, and checks them the way a distribution would,
# then checks `make install`'s per-user install and uninstall against a scratch HOME.
# Usage: package-test.sh NFPM CLI_BINARY DESKTOP_BINARY WEBKIT(4.0|4.1)
set -euo pipefail
nfpm=$(realpath "$1") bin=$(realpath "$2") desktop=$(realpath "$3") webkit=$4
cd "$(dirname "$0")/../.."
id=dev.agentdesk.AgentDesk
linux=build/package/linux
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
fail() { echo "package-test: $*"; exit 1; }

desktop-file-validate "$linux/$id.desktop" || fail "desktop-file-validate refused $id.desktop"
appstreamcli validate --no-net "$linux/$id.metainfo.xml" >"$scratch/appstream.log" 2>&1 \
  || { cat "$scratch/appstream.log"; fail "appstreamcli refused the metainfo"; }
echo "package-test: the launcher and the metainfo validate"

# The profile needs AppArmor 4 (abi 4.0, the userns rule). Older AppArmor, as on Debian 12, can
# only parse the rest of it: say which was checked.
profile=$linux/apparmor/agentdesk
grep -qx '  userns,' "$profile" || fail "the AppArmor profile grants no userns"
if [ -e /etc/apparmor.d/abi/4.0 ]; then
  apparmor_parser -Q -K "$profile" || fail "apparmor_parser refused $profile"
  echo "package-test: apparmor_parser (AppArmor 4) parses the profile"
else
  sed -e 's|^abi <abi/4.0>,|abi <abi/3.0>,|' -e '/^  userns,$/d' "$profile" >"$scratch/profile"
  out=$(apparmor_parser -Q -K "$scratch/profile" 2>&1) || { echo "$out"; fail "apparmor_parser refused $profile (less its AppArmor 4 rules)"; }
  echo "package-test: this machine has AppArmor $(apparmor_parser -V | head -n1 | grep -o '[0-9.]*$'), without abi 4.0:" \
    "parsed the profile less its abi line and userns rule"
fi

debs=$(bash build/scripts/package.sh "$nfpm" "$bin" "$desktop" "$webkit" build/dist)
cli_deb=$(sed -n 1p <<<"$debs") desktop_deb=$(sed -n 2p <<<"$debs")
echo "package-test: built $cli_deb and $desktop_deb"

# contents DEB WANT...: the package holds exactly the files WANT.
contents() {
  local deb=$1
  shift
  dpkg-deb -c "$deb" | awk '{print $6}' | sed 's|^\./|/|' | grep -v '/$' | sort >"$scratch/contents"
  printf '%s\n' "$@" | sort >"$scratch/want"
  diff -u "$scratch/want" "$scratch/contents" || fail "$(basename "$deb") holds other files than expected (- expected, + found)"
}
contents "$cli_deb" /usr/bin/agentdesk /etc/apparmor.d/agentdesk /usr/share/lintian/overrides/agentdesk \
  /usr/share/doc/agentdesk/copyright /usr/share/doc/agentdesk/changelog.gz
want=(/usr/bin/agentdesk-desktop /usr/share/applications/$id.desktop /usr/share/metainfo/$id.metainfo.xml
  /usr/share/doc/agentdesk-desktop/copyright /usr/share/doc/agentdesk-desktop/changelog.gz /usr/share/icons/hicolor/scalable/apps/$id.svg)
for size in 16 24 32 48 64 128 256 512; do want+=("/usr/share/icons/hicolor/${size}x${size}/apps/$id.png"); done
contents "$desktop_deb" "${want[@]}"

# The command line's package pulls in no desktop library; the window's pulls in GTK, the WebKitGTK
# it was built for and the command line of its own version.
cli_depends=$(dpkg-deb -f "$cli_deb" Depends)
! grep -Eq 'gtk|webkit' <<<"$cli_depends" || fail "the command line's package depends on '$cli_depends'"
case $webkit in 4.0) runtime=libwebkit2gtk-4.0-37 ;; 4.1) runtime=libwebkit2gtk-4.1-0 ;; esac
depends=$(dpkg-deb -f "$desktop_deb" Depends) version=$(dpkg-deb -f "$cli_deb" Version)
for need in "$runtime" libgtk-3-0 "agentdesk (= $version)"; do
  [[ ", $depends," == *", $need,"* ]] || fail "the window's Depends '$depends' lacks $need"
done
dpkg-deb --ctrl-tarfile "$cli_deb" | tar -xO ./conffiles | grep -qx /etc/apparmor.d/agentdesk || fail "the AppArmor profile is no conffile"
echo "package-test: dpkg-deb -c lists the expected files; agentdesk Depends: '${cli_depends}'; agentdesk-desktop Depends: $depends"
# The command line runs where GTK and WebKit are not installed: it is static, with no loader.
dpkg-deb --fsys-tarfile "$cli_deb" | tar -xO ./usr/bin/agentdesk >"$scratch/agentdesk"
! readelf -lW "$scratch/agentdesk" | grep -q 'Requesting program interpreter' || fail "/usr/bin/agentdesk is dynamically linked"
echo "package-test: /usr/bin/agentdesk is static"

# Errors fail; warnings are printed (no manual page, a Go binary built without PIE).
for deb in "$cli_deb" "$desktop_deb"; do
  rc=0
  lintian --fail-on error --tag-display-limit 0 "$deb" >"$scratch/lintian.log" 2>&1 || rc=$?
  grep -v '^running with root privileges' "$scratch/lintian.log" || true
  [ "$rc" -eq 0 ] || fail "lintian found errors in $(basename "$deb")"
done
echo "package-test: lintian finds no errors in either package"

# A scratch HOME with a file of someone else's in each folder the install writes to: uninstall
# must leave exactly what was there.
home=$scratch/home
mkdir -p "$home/.local/bin" "$home/.local/share/applications" "$home/.local/share/icons/hicolor/48x48/apps"
echo other >"$home/.local/bin/other-tool"
echo other >"$home/.local/share/applications/other.desktop"
echo other >"$home/.local/share/icons/hicolor/48x48/apps/other.png"
snapshot() { (cd "$home" && find . -printf '%p %y %m\n' | sort && find . -type f -exec md5sum {} + | sort); }
snapshot >"$scratch/before"
HOME=$home bash build/scripts/install.sh install "$bin" "$desktop" >/dev/null
for f in bin/agentdesk bin/agentdesk-desktop share/applications/$id.desktop share/metainfo/$id.metainfo.xml \
  share/icons/hicolor/256x256/apps/$id.png share/icons/hicolor/scalable/apps/$id.svg; do
  [ -f "$home/.local/$f" ] || fail "make install wrote no ~/.local/$f"
done
grep -qx "Exec=$home/.local/bin/agentdesk-desktop %f" "$home/.local/share/applications/$id.desktop" || fail "the installed launcher does not start ~/.local/bin/agentdesk-desktop"
desktop-file-validate "$home/.local/share/applications/$id.desktop" || fail "the installed launcher does not validate"
HOME=$home "$home/.local/bin/agentdesk" version >/dev/null || fail "the installed binary does not run"
HOME=$home bash build/scripts/install.sh uninstall >/dev/null
snapshot >"$scratch/after"
diff -u "$scratch/before" "$scratch/after" || fail "uninstall left HOME other than it was (- before, + after)"
echo "package-test: install then uninstall leaves a scratch HOME as it was"

# As root and where no AgentDesk package is installed (CI): install the command line alone, run
# it, then the window beside it, open it, and purge both.
purge() { dpkg -P agentdesk-desktop agentdesk >/dev/null 2>&1; }
if [ "$(id -u)" -eq 0 ] && ! dpkg-query -W agentdesk agentdesk-desktop >/dev/null 2>&1; then
  dpkg -i "$cli_deb" >/dev/null || fail "dpkg -i of the command line alone failed"
  /usr/bin/agentdesk version >/dev/null || { purge; fail "/usr/bin/agentdesk does not run"; }
  [ ! -e /usr/bin/agentdesk-desktop ] || { purge; fail "the command line's package brought the window"; }
  dpkg -i "$desktop_deb" >/dev/null || { purge; fail "dpkg -i of the window failed"; }
  /usr/bin/agentdesk-desktop version >/dev/null || { purge; fail "/usr/bin/agentdesk-desktop does not run"; }
  # The installed launcher's Exec line, with a folder for its %f, opens and paints the window.
  exec_bin=$(command -v "$(sed -n 's/^Exec=\([^ ]*\) %f$/\1/p' "/usr/share/applications/$id.desktop")") ||
    { purge; fail "the installed launcher's Exec line names no program on PATH"; }
  mkdir -p "$scratch/project"
  bash "$(dirname "$0")/desktop-smoke.sh" "$exec_bin" build/screenshots/desktop-deb.png "$scratch/project" ||
    { purge; fail "the installed launcher's Exec line did not open the window"; }
  dpkg -P agentdesk-desktop agentdesk >/dev/null || fail "dpkg -P failed"
  [ ! -e /usr/bin/agentdesk ] && [ ! -e /usr/bin/agentdesk-desktop ] && [ ! -e /etc/apparmor.d/agentdesk ] || fail "dpkg -P left files behind"
  echo "package-test: dpkg -i of the command line alone (no window), then the window; both run, the launcher's Exec line opens the window on a folder, dpkg -P of both"
else
  echo "package-test: dpkg -i not tried (needs root and no agentdesk package installed)"
fi
