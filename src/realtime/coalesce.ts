/**
 * Coalescing per key: the first item of a key goes out at once; items that come within `intervalMs` of the last
 * sending wait, and go out together when the interval has passed. So a key is sent at most once per interval, and
 * nothing is lost or late by more than one interval. Used for a cafe's figures, which a busy till would otherwise
 * announce several times a second.
 */
interface Lane<T> {
  /** When the key was last sent (ms), or -Infinity. */
  lastSent: number;
  /** Items waiting for the next sending, and the promise of that sending. */
  pending: T[] | null;
  done: Promise<void> | null;
}

export class Coalescer<K, T> {
  private readonly lanes = new Map<K, Lane<T>>();

  /** `send` sends a key's items (one or more); `now` is the clock, in ms. */
  constructor(
    private readonly intervalMs: number,
    private readonly send: (key: K, items: T[]) => Promise<void>,
    private readonly now: () => number = () => performance.now(),
  ) {}

  /** Hands in an item; resolves once the sending that carries it went out, rejects when that sending failed. */
  add(key: K, item: T): Promise<void> {
    let lane = this.lanes.get(key);
    if (!lane) this.lanes.set(key, (lane = { lastSent: -Infinity, pending: null, done: null }));
    if (lane.pending) {
      lane.pending.push(item);
      return lane.done!;
    }
    const wait = lane.lastSent + this.intervalMs - this.now();
    if (wait <= 0) {
      lane.lastSent = this.now();
      return this.send(key, [item]);
    }
    const waiting = lane;
    waiting.pending = [item];
    waiting.done = new Promise<void>((resolve, reject) => {
      setTimeout(() => {
        const items = waiting.pending!;
        waiting.pending = null;
        waiting.done = null;
        waiting.lastSent = this.now();
        this.send(key, items).then(resolve, reject);
      }, wait);
    });
    return waiting.done;
  }
}
