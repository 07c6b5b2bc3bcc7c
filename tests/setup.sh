#!/bin/sh
# Installs the Debian packages leakfind needs to build and test, when missing.
set -e
need=""
for pkg in build-essential libjudy-dev libxxhash-dev zlib1g-dev time ocaml-nox ocaml-findlib \
           man-db groff-base bsdutils; do
    dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q "install ok installed" || need="$need $pkg"
done
if [ -n "$need" ]; then
    echo "leakfind setup: installing$need"
    SUDO=""
    [ "$(id -u)" = 0 ] || SUDO=sudo
    $SUDO apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq $need >/dev/null
fi
