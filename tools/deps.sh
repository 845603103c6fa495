#!/bin/sh
# deps.sh [test] -- install what the build needs on Debian 12 (apt-get when root, else print the command)
#
# With `test`, also the programs the end-to-end tests drive: Xvfb, xdotool and
# ImageMagick (play in a virtual window), ffmpeg (the Y4M stream decodes), python3
# (the shared fidelity tool that compares shots with the games' own frames).
PKGS="build-essential pkg-config clang libsdl2-dev libopenal-dev libstb-dev libcmocka-dev zlib1g-dev libpng-dev"
[ "${1:-}" = test ] && PKGS="$PKGS xvfb xauth xdotool imagemagick ffmpeg python3"
missing=""
for p in $PKGS; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing="$missing $p"
done
[ -z "$missing" ] && exit 0
if [ "$(id -u)" = 0 ]; then
    echo "deps: installing$missing"
    export DEBIAN_FRONTEND=noninteractive
    apt-get update -qq && apt-get install -y -qq --no-install-recommends $missing >/dev/null || { echo "deps: apt-get failed" >&2; exit 1; }
else
    echo "deps: missing packages:$missing" >&2
    echo "deps: run: sudo apt-get install -y$missing" >&2
    exit 1
fi
