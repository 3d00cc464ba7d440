/**
 * What every benchmark shares about its run: the smoke mode and the correctness checks.
 *
 * A smoke run (`BENCH_SMOKE=1`, or `--smoke` on the command line) is the benchmark at a tiny size, a second or two,
 * with all its checks on and its figures printed but judged by nobody: `npm test` runs every benchmark that way
 * (tests/support/bench-smoke.sh), so a benchmark that no longer runs, or whose results no longer agree, fails the
 * suite. A smoke run always has its smoke sizes (the environment's settings are for full runs), so it is the same run
 * on every machine.
 *
 * A check is a fact the benchmark's figures depend on (Mesa and its baseline computed the same totals, every row was
 * stored, no message was lost). A failed check is printed and the benchmark exits 1, in a full run as in a smoke;
 * targets on speed are only printed, never checked. Each benchmark calls `finishChecks()` once at its end, which
 * prints the tally; a smoke run's tally line ("bench smoke: …") is what bench-smoke.sh looks for.
 */

/** Whether this run is a smoke run. */
export const SMOKE = process.env.BENCH_SMOKE === "1" || process.argv.includes("--smoke");

/** A numeric setting: the smoke size in a smoke run, else the environment's `name` when set, else the full size. */
export function setting(name: string, full: number, smoke: number): number {
  if (SMOKE) return smoke;
  const given = process.env[name];
  if (given === undefined || given === "") return full;
  const value = Number(given);
  if (!Number.isFinite(value) || value < 0) throw new Error(`${name}: expected a number, got ${JSON.stringify(given)}`);
  return value;
}

let passed = 0;
const failed: string[] = [];

/** Records a correctness check; a failed one is printed at once and makes the run exit 1. Returns `ok`. */
export function check(ok: boolean, what: string): boolean {
  if (ok) passed++;
  else {
    failed.push(what);
    console.error(`✗ check failed: ${what}`);
    process.exitCode = 1;
  }
  return ok;
}

/** The checks' tally, printed once at the end of a run (on stderr, so a child's JSON on stdout stays clean). */
export function finishChecks(): void {
  const total = passed + failed.length;
  if (total === 0) check(false, "the benchmark checked nothing");
  const tally = failed.length
    ? `${failed.length} of ${passed + failed.length} checks failed: ${failed.join("; ")}`
    : `${passed} checks passed`;
  console.error(SMOKE ? `bench smoke: ${tally}` : `checks: ${tally}`);
}

/** The exit code a benchmark that ends itself with process.exit should pass: 1 when a check failed. */
export function exitCode(): number {
  return failed.length ? 1 : Number(process.exitCode ?? 0);
}
