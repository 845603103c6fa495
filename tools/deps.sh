#!/bin/sh
# deps.sh [test|pentium] -- install what the build needs on Debian 12 (apt-get when root, else print the command)
#
# With `test`, also the programs the end-to-end tests drive: Xvfb, xdotool and
# ImageMagick (play in a virtual window), ffmpeg (the Y4M stream decodes), python3
# (the shared fidelity tool that compares shots with the games' own frames), libx11-dev
# (tools/xdnd_drop.c drops a file on the window: xdotool cannot drag files).
#
# With `pentium`, only what `make pentium` needs (the 32-bit headless build: no SDL,
# OpenAL or libpng): gcc-multilib (gcc -m32 and the 32-bit C library), the i386
# zlib and cmocka shared libraries through multiarch (i386 added to dpkg's
# architectures), and the 64-bit -dev packages for their headers and for the
# build-machine generator of the built-in content. Not zlib1g-dev:i386 or
# libcmocka-dev:i386: they pull libc6-dev:i386, whose linux-libc-dev:i386 must be the
# very version of the installed 64-bit one, which the i386 archive often is not.
PKGS="build-essential pkg-config clang libsdl2-dev libopenal-dev libstb-dev libcmocka-dev zlib1g-dev libpng-dev"
[ "${1:-}" = test ] && PKGS="$PKGS xvfb xdotool imagemagick ffmpeg python3 libx11-dev"
I386=""
if [ "${1:-}" = pentium ]; then
    PKGS="build-essential gcc-multilib libstb-dev libcmocka-dev zlib1g-dev valgrind libcmocka0:i386 zlib1g:i386"
    dpkg --print-foreign-architectures | grep -qx i386 || I386=1
fi
missing=""
for p in $PKGS; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing="$missing $p"
done
[ -z "$missing" ] && exit 0
if [ "$(id -u)" = 0 ]; then
    echo "deps: installing$missing"
    export DEBIAN_FRONTEND=noninteractive
    if [ -n "$I386" ]; then
        echo "deps: adding the i386 architecture (dpkg --add-architecture i386)"
        dpkg --add-architecture i386 || { echo "deps: dpkg --add-architecture i386 failed" >&2; exit 1; }
    fi
    # A mirror being synced serves index files of the wrong size for a while ("File has unexpected
    # size ... Mirror sync in progress?"): try again, then go on with the lists that did come.
    n=1
    until apt-get update -qq; do
        [ $n -ge 3 ] && { echo "deps: apt-get update failed $n times: installing from the package lists it has" >&2; break; }
        echo "deps: apt-get update failed (try $n of 3): again in $((n * 10)) s" >&2
        sleep $((n * 10))
        n=$((n + 1))
    done
    apt-get install -y -qq --no-install-recommends $missing >/dev/null || { echo "deps: apt-get install failed" >&2; exit 1; }
else
    echo "deps: missing packages:$missing" >&2
    [ -n "$I386" ] && echo "deps: run: sudo dpkg --add-architecture i386" >&2
    echo "deps: run: sudo apt-get update && sudo apt-get install -y$missing" >&2
    exit 1
fi
