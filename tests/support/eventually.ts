/** Waits until `check` gives a value (polling every 10 ms), and returns it; fails after `timeoutMs` naming `what`. */
export async function eventually<T>(
  check: () => T | null | undefined | false,
  what: string,
  timeoutMs = 5000,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    const value = check();
    if (value) return value;
    await Bun.sleep(10);
  }
  throw new Error(`timed out waiting for ${what}`);
}
