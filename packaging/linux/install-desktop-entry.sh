#!/usr/bin/env bash
# Install tokviz's desktop integration (menu entry, icon, AppStream metainfo) for an installed
# `tokviz` command (pip install . from the checkout, or the PyInstaller folder on PATH).
#
#   packaging/linux/install-desktop-entry.sh                 # into ~/.local/share (this user)
#   PREFIX=/usr/local sudo -E packaging/linux/install-desktop-entry.sh
#   DESTDIR=/tmp/stage PREFIX=/usr packaging/linux/install-desktop-entry.sh   # for distro packages
set -euo pipefail

HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
ROOT="$(cd "$HERE/../.." && pwd)"
if [[ -n "${PREFIX:-}" || -n "${DESTDIR:-}" ]]; then
    DATA="${DESTDIR:-}${PREFIX:-/usr/local}/share"
else
    DATA="${XDG_DATA_HOME:-$HOME/.local/share}"
fi

# The icon's file name must equal the desktop file's Icon= value.
install -D -m 644 "$ROOT/resources/icons/tokviz.svg" "$DATA/icons/hicolor/scalable/apps/io.github.tokviz.svg"
install -D -m 644 "$HERE/io.github.tokviz.desktop" "$DATA/applications/io.github.tokviz.desktop"
install -D -m 644 "$HERE/io.github.tokviz.metainfo.xml" "$DATA/metainfo/io.github.tokviz.metainfo.xml"

if [[ -z "${DESTDIR:-}" ]]; then
    # refresh menus and icon caches when the tools exist; harmless when they do not
    command -v update-desktop-database >/dev/null && update-desktop-database -q "$DATA/applications" || true
    command -v gtk-update-icon-cache >/dev/null && gtk-update-icon-cache -q -t "$DATA/icons/hicolor" || true
fi
echo "installed tokviz desktop entry into $DATA"
