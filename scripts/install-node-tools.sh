#!/usr/bin/env bash
# Install the accessibility checkers the tests run: axe-core (injected into the HTML
# book's pages in Debian's Chromium) and Ace by DAISY (the EPUB), from the npm registry,
# at the versions package-lock.json pins, into node_modules/.
#
#   bash scripts/install-node-tools.sh
#
# No browser is downloaded: install scripts do not run (puppeteer's would fetch a
# Chromium), and the tests point Ace at /usr/bin/chromium.  Node.js and npm come from
# scripts/install-system-deps.sh --dev.
set -euo pipefail
cd "$(dirname "$0")/.."

if ! command -v npm >/dev/null; then
  echo "npm is missing: run bash scripts/install-system-deps.sh --dev" >&2
  exit 1
fi
stamp=node_modules/.kobook-installed
if [ -f "$stamp" ] && [ "$stamp" -nt package-lock.json ] && [ -f node_modules/axe-core/axe.min.js ]; then
  echo "node tools: all present"
  exit 0
fi
export PUPPETEER_SKIP_DOWNLOAD=1
npm ci --ignore-scripts --no-audit --no-fund --loglevel=error
touch "$stamp"
