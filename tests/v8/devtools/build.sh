#!/usr/bin/env bash
# Builds the DevTools reference harness: installs the pinned npm packages
# (package.json / package-lock.json) into node_modules/ and bundles
# harness.ts with DevTools' heap snapshot worker sources into dist/harness.mjs.
# Needs node >= 20 and npm with access to the npm registry.
set -euo pipefail
cd "$(dirname "$0")"
if [ -f package-lock.json ]; then
    npm ci --no-audit --no-fund --loglevel=error
else
    npm install --no-audit --no-fund --loglevel=error
fi
node build.mjs
echo "built $(pwd)/dist/harness.mjs" >&2
