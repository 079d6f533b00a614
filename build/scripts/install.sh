#!/usr/bin/env bash
# Installs AgentDesk for one user, without root: the same files as the Debian package, under
# PREFIX (default ~/.local), with the launcher's Exec pointing at the installed window binary.
#   install.sh install CLI_BINARY DESKTOP_BINARY [PREFIX]
#   install.sh uninstall [PREFIX]
# uninstall removes exactly those files, and then the folders that are left empty.
set -euo pipefail
id=dev.agentdesk.AgentDesk
action=${1:-}
if [ "$action" = install ]; then bin=$(realpath "$2") desktop=$(realpath "$3"); prefix=${4:-$HOME/.local}; else prefix=${2:-$HOME/.local}; fi
prefix=$(realpath -m "$prefix")
cd "$(dirname "$0")/../package/linux"

# Every file, as "destination source", relative to PREFIX; the launcher is written, not copied.
files=("bin/agentdesk" "bin/agentdesk-desktop" "share/applications/$id.desktop" "share/metainfo/$id.metainfo.xml")
for icon in icons/hicolor/*/apps/"$id".*; do files+=("share/$icon"); done

case "$action" in
install)
  install -D -m 0755 "$bin" "$prefix/bin/agentdesk"
  install -D -m 0755 "$desktop" "$prefix/bin/agentdesk-desktop"
  install -d "$prefix/share/applications"
  sed "s|^Exec=agentdesk-desktop|Exec=$prefix/bin/agentdesk-desktop|" "$id.desktop" > "$prefix/share/applications/$id.desktop"
  install -D -m 0644 "$id.metainfo.xml" "$prefix/share/metainfo/$id.metainfo.xml"
  for icon in icons/hicolor/*/apps/"$id".*; do install -D -m 0644 "$icon" "$prefix/share/$icon"; done
  echo "install: AgentDesk is in $prefix/bin/agentdesk and in the desktop's application list"
  case ":$PATH:" in *":$prefix/bin:"*) ;; *) echo "install: add $prefix/bin to PATH to start it as 'agentdesk' from a shell" ;; esac
  ;;
uninstall)
  for f in "${files[@]}"; do
    rm -f "$prefix/$f"
    dir=$(dirname "$prefix/$f")
    while [ "$dir" != "$prefix" ] && rmdir "$dir" 2>/dev/null; do dir=$(dirname "$dir"); done
  done
  rmdir "$prefix" 2>/dev/null || true
  echo "uninstall: removed AgentDesk from $prefix"
  ;;
*) echo "usage: install.sh install CLI_BINARY DESKTOP_BINARY [PREFIX] | uninstall [PREFIX]" >&2; exit 2 ;;
esac
