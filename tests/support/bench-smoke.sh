#!/usr/bin/env bash
# Every benchmark (bench/*.ts, found here, so a new one is run too) as a smoke: its smoke sizes (a second or two),
# its correctness checks on, its figures judged by nobody. A benchmark fails the run when it exits non-zero (a
# failed check exits 1), when it has no smoke mode (it imports bench/support/smoke.ts), or when it ends without its
# tally ("bench smoke: …", printed by finishChecks). Prints each benchmark's time, and the output of any that failed.
set -euo pipefail
cd "$(dirname "$0")/../.."
export PATH="$PWD/node_modules/.bin:$PATH"

logs=$(mktemp -d "${TMPDIR:-/tmp}/mesa-bench-smoke-XXXXXX")
trap 'rm -rf "$logs"' EXIT
failed=()
started=$(date +%s%N)
for file in bench/*.ts; do
  name=$(basename "$file" .ts)
  log="$logs/$name.log"
  begin=$(date +%s%N)
  if ! grep -q 'from "./support/smoke"' "$file"; then
    echo "no smoke mode: $file does not import ./support/smoke (setting, check, finishChecks)" >"$log"
    result=failed
  elif ! BENCH_SMOKE=1 NODE_ENV=production bun "$file" </dev/null >"$log" 2>&1; then
    result=failed
  elif ! grep -q '^bench smoke: ' "$log"; then
    echo "ended without its tally: finishChecks() was not called" >>"$log"
    result=failed
  else
    result=ok
  fi
  seconds=$(awk "BEGIN { printf \"%.1f\", ($(date +%s%N) - $begin) / 1e9 }")
  printf '  %-7s %-16s %6s s\n' "$result" "$name" "$seconds"
  if [ "$result" = failed ]; then
    failed+=("$name")
    sed 's/^/    │ /' "$log"
  fi
done
total=$(awk "BEGIN { printf \"%.1f\", ($(date +%s%N) - $started) / 1e9 }")
if [ ${#failed[@]} -gt 0 ]; then
  echo "bench smoke: ${#failed[@]} failed (${failed[*]}) in $total s"
  exit 1
fi
echo "bench smoke: every benchmark passed in $total s"
