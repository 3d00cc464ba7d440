#!/usr/bin/env bash
# Makes sure Debian's Chromium is at /usr/bin/chromium for the Playwright tests (playwright.config.ts points there;
# Playwright never downloads a browser here). Quiet and idempotent when it is already installed.
set -euo pipefail

CHROMIUM=/usr/bin/chromium

if [ -x "$CHROMIUM" ]; then
  exit 0
fi

fail() {
  echo "ensure-chromium: $*" >&2
  echo "ensure-chromium: install it by hand with: apt-get update && apt-get install -y chromium" >&2
  exit 1
}

command -v apt-get >/dev/null 2>&1 || fail "$CHROMIUM is missing and apt-get is not available (not a Debian-based system?)."

if [ "$(id -u)" -eq 0 ]; then
  as_root=()
elif command -v sudo >/dev/null 2>&1; then
  as_root=(sudo)
else
  fail "$CHROMIUM is missing; installing it needs root and sudo is not available."
fi

echo "ensure-chromium: $CHROMIUM is missing, installing Debian's chromium package…"
export DEBIAN_FRONTEND=noninteractive
"${as_root[@]}" env DEBIAN_FRONTEND=noninteractive apt-get update -qq || fail "apt-get update failed."
"${as_root[@]}" env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends chromium \
  || fail "apt-get install chromium failed."

[ -x "$CHROMIUM" ] || fail "the chromium package was installed but $CHROMIUM is still missing."
echo "ensure-chromium: installed $("$CHROMIUM" --version 2>/dev/null || echo chromium)."
