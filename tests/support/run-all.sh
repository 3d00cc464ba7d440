#!/usr/bin/env bash
# The whole test suite, as `npm test` and CI run it, stage by stage: browser set-up, asset build, the checks and the
# bun tests (typecheck, lint, format and bun test at once, each into its own log), the benchmarks' smokes, Playwright.
# It stops at the first stage that fails and names it; at the end, or at that stop, it prints each stage's time.
#
# On the 2-core machine the three checks at once take about three quarters of their time one after another, and the
# bun tests, which wait on the disk and on servers of their own part of the time, fit beside them; the benchmarks'
# smokes beside them saved nothing (the checks keep both cores busy), so they run after.
set -euo pipefail
cd "$(dirname "$0")/../.."
export PATH="$PWD/node_modules/.bin:$PATH"

logs=$(mktemp -d "${TMPDIR:-/tmp}/mesa-test-XXXXXX")
now() { date +%s%N; }
seconds() { awk "BEGIN { printf \"%.1f\", ($2 - $1) / 1e9 }"; }
suite_started=$(now)
rows=()
failed_stage=""

summary() {
  local status=$?
  trap - EXIT
  echo
  echo "stage                    time"
  for row in "${rows[@]}"; do echo "$row"; done
  printf '%-22s %6s s\n' "total" "$(seconds "$suite_started" "$(now)")"
  if [ -n "$failed_stage" ]; then
    echo "npm test failed at: $failed_stage"
    if [ "$status" -eq 0 ]; then status=1; fi
  elif [ "$status" -ne 0 ]; then
    echo "npm test failed (exit code $status)"
  fi
  rm -rf "$logs"
  exit "$status"
}
trap summary EXIT

# Records a stage's time (and whether it failed) for the summary.
record() {
  local name=$1 started=$2 ended=$3 result=$4 note=${5:-}
  rows+=("$(printf '%-22s %6s s  %s%s' "$name" "$(seconds "$started" "$ended")" "$result" "$note")")
}

# Runs one stage, its output shown as it comes; a failure stops the suite with the stage's exit code.
stage() {
  local name=$1
  shift
  echo "› $name"
  local started code=0
  started=$(now)
  "$@" || code=$?
  if [ "$code" -ne 0 ]; then
    record "$name" "$started" "$(now)" failed
    failed_stage=$name
    exit "$code"
  fi
  record "$name" "$started" "$(now)" ok
}

typecheck() { tsc --noEmit; }
# Two worker processes: the checks beside them keep both cores busy only for their first minute.
unit() { bun test --timeout 20000 --parallel=2; }
# What the summary calls a check.
label() { if [ "$1" = unit ]; then echo "bun test"; else echo "$1"; fi; }
lint() { eslint .; }
format() { prettier --check . --log-level warn; }

# Typecheck, lint, format and the bun tests at once, each into its own log: every one runs to its end, the logs of
# those that failed are printed, and the first of them in this order is the stage that failed.
checks() {
  echo "› typecheck, lint, format and bun test (at once)"
  local started name
  started=$(now)
  local names=(typecheck lint format unit)
  local pids=()
  for name in "${names[@]}"; do
    (
      begin=$(now)
      code=0
      "$name" >"$logs/$name.log" 2>&1 || code=$?
      echo "$begin $(now) $code" >"$logs/$name.result"
    ) &
    pids+=($!)
  done
  wait "${pids[@]}"
  local first_failed="" begin ended code
  for name in "${names[@]}"; do
    read -r begin ended code <"$logs/$name.result"
    if [ "$code" -ne 0 ]; then
      record "$(label "$name")" "$begin" "$ended" failed "  (in parallel)"
      echo "✗ $(label "$name") failed:"
      cat "$logs/$name.log"
      if [ -z "$first_failed" ]; then first_failed=$(label "$name"); fi
    else
      record "$(label "$name")" "$begin" "$ended" ok "  (in parallel)"
    fi
  done
  record "  the four at once" "$started" "$(now)" ""
  if [ -n "$first_failed" ]; then
    failed_stage=$first_failed
    exit 1
  fi
}

stage "chromium set-up" bash tests/support/ensure-chromium.sh
stage "asset build" bun cli/main.ts assets:build
checks
stage "bench smoke" bash tests/support/bench-smoke.sh
stage "playwright" playwright test
