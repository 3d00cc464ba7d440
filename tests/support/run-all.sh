#!/usr/bin/env bash
# The whole test suite, as `npm test` and CI run it: browser set-up, asset build, typecheck, lint, format, bun tests, Playwright.
set -euo pipefail
cd "$(dirname "$0")/../.."
export PATH="$PWD/node_modules/.bin:$PATH"

bash tests/support/ensure-chromium.sh
bun cli/main.ts assets:build
echo "› typecheck"
tsc --noEmit
echo "› lint"
eslint .
echo "› format"
prettier --check . --log-level warn
echo "› bun test"
bun test --timeout 20000
echo "› playwright"
playwright test
