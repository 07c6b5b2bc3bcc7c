#!/bin/sh
# Installs the Debian packages leakfind needs to build and test, when missing.
set -e
need=""
for pkg in build-essential libjudy-dev libxxhash-dev libmicrohttpd-dev zlib1g-dev time ocaml-nox ocaml-findlib curl jq \
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

# `leakfind report`'s pages are tested in Debian's chromium, driven by
# puppeteer-core (tests/report/package.json pins it). Best effort: without
# them those checks say SKIP.
if ! command -v chromium >/dev/null 2>&1 || ! command -v npm >/dev/null 2>&1; then
    web=""
    command -v chromium >/dev/null 2>&1 || web="chromium"
    command -v npm >/dev/null 2>&1 || web="$web npm"
    echo "leakfind setup: installing $web (report tests)"
    SUDO=""
    [ "$(id -u)" = 0 ] || SUDO=sudo
    { $SUDO apt-get update -qq && DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq $web >/dev/null; } ||
        echo "leakfind setup: could not install $web: the report page tests will be skipped"
fi
report_tests="$(dirname "$0")/report"
if command -v npm >/dev/null 2>&1 && [ ! -d "$report_tests/node_modules/puppeteer-core" ]; then
    (cd "$report_tests" && npm ci --no-audit --no-fund --silent) ||
        echo "leakfind setup: npm ci in tests/report failed: the report page tests will be skipped"
fi

# `leakfind record` on a .NET program takes its dumps with dotnet-gcdump
# (tests/dotnet/run.sh). Best effort, where the .NET SDK is installed:
# without the tool that check says skipped; leakfind itself needs no .NET.
if command -v dotnet >/dev/null 2>&1 && ! command -v dotnet-gcdump >/dev/null 2>&1 &&
    [ ! -x "$HOME/.dotnet/tools/dotnet-gcdump" ]; then
    echo "leakfind setup: installing dotnet-gcdump (dotnet tool install -g)"
    dotnet tool install -g dotnet-gcdump >/dev/null 2>&1 ||
        echo "leakfind setup: could not install dotnet-gcdump: the .NET record checks will be skipped"
fi

# .NET cores (tests/dotnet/core.sh) are taken with dotnet-dump, where the
# .NET SDK is installed; there that suite fails without it (the agent
# itself, agents/dotnet, is built by make from NuGet packages).
if command -v dotnet >/dev/null 2>&1 && ! command -v dotnet-dump >/dev/null 2>&1 &&
    [ ! -x "$HOME/.dotnet/tools/dotnet-dump" ]; then
    echo "leakfind setup: installing dotnet-dump (dotnet tool install -g)"
    dotnet tool install -g dotnet-dump --version 10.0.750501 >/dev/null 2>&1 ||
        echo "leakfind setup: could not install dotnet-dump: the .NET core checks will fail"
fi
# fixtures/dotnet/regen-trace.sh records the .nettrace fixtures with
# dotnet-trace. The tests read the committed traces and need neither .NET
# nor the tool; best effort, where the .NET SDK is installed.
if command -v dotnet >/dev/null 2>&1 && ! command -v dotnet-trace >/dev/null 2>&1 &&
    [ ! -x "$HOME/.dotnet/tools/dotnet-trace" ]; then
    echo "leakfind setup: installing dotnet-trace (dotnet tool install -g)"
    dotnet tool install -g dotnet-trace --version 10.0.750501 >/dev/null 2>&1 ||
        echo "leakfind setup: could not install dotnet-trace: fixtures/dotnet/regen-trace.sh needs it"
fi
