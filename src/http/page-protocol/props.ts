/**
 * Prop kinds of the page protocol. A page's props are plain values or functions (evaluated only when sent),
 * or one of the wrappers below, which change when a prop is sent and how the client combines it.
 *
 *   always(v)     sent on every visit, even a partial reload that did not ask for it
 *   optional(fn)  sent only when a partial reload asks for it by name
 *   defer(fn, g)  left out of the first response, listed in `deferredProps[g]`; the client fetches it next;
 *                 .rescue(): when fn throws, the prop is left out and listed in `rescuedProps` (the client's <Deferred>
 *                 shows its `rescue` slot), the rest of the response is sent, and the error is logged
 *   merge(v)      appended to what the client has (`mergeProps`); .prepend() / .deep() / .matchOn("id")
 *   once(fn)      sent once; the client remembers it and says so in X-Inertia-Except-Once-Props
 */

export type Resolvable<T = unknown> = T | (() => T | Promise<T>);

interface MergeOptions {
  mode: "append" | "prepend" | "deep";
  matchOn: string[];
}

export class PropKind<T = unknown> {
  constructor(
    readonly kind: "always" | "optional" | "defer" | "merge" | "once",
    readonly value: Resolvable<T>,
    readonly group: string = "default",
    readonly mergeOptions: MergeOptions | null = null,
    readonly expiresAt: number | null = null,
    /** A deferred prop whose failure is reported to the client in `rescuedProps` instead of failing the response. */
    readonly rescued: boolean = false,
  ) {}

  /** The same prop with other options (the wrappers below). */
  private with(changes: { mergeOptions?: MergeOptions | null; rescued?: boolean }): PropKind<T> {
    return new PropKind(
      this.kind,
      this.value,
      this.group,
      changes.mergeOptions === undefined ? this.mergeOptions : changes.mergeOptions,
      this.expiresAt,
      changes.rescued ?? this.rescued,
    );
  }

  /** Prepends instead of appending (merge and deferred-merge props). */
  prepend(): PropKind<T> {
    return this.with({ mergeOptions: { mode: "prepend", matchOn: this.mergeOptions?.matchOn ?? [] } });
  }

  /** Merges nested objects key by key instead of appending to a list. */
  deep(): PropKind<T> {
    return this.with({ mergeOptions: { mode: "deep", matchOn: this.mergeOptions?.matchOn ?? [] } });
  }

  /** Items whose `key` matches replace the client's copy instead of being added again. */
  matchOn(...keys: string[]): PropKind<T> {
    const base = this.mergeOptions ?? { mode: "append" as const, matchOn: [] };
    return this.with({ mergeOptions: { mode: base.mode, matchOn: [...base.matchOn, ...keys] } });
  }

  /** Makes a deferred prop merge into what the client has once it arrives. */
  merge(): PropKind<T> {
    return this.with({ mergeOptions: this.mergeOptions ?? { mode: "append", matchOn: [] } });
  }

  /**
   * A deferred prop that may fail on its own: its error is logged, the prop left out and named in `rescuedProps`, and
   * the response carries the other props (the client shows the `rescue` slot of its <Deferred>, and asks again on
   * the next reload). Only deferred props: a page expects its other props to be there.
   */
  rescue(): PropKind<T> {
    if (this.kind !== "defer") throw new Error("only a deferred prop can be rescued");
    return this.with({ rescued: true });
  }
}

export const always = <T>(value: Resolvable<T>) => new PropKind<T>("always", value);
export const optional = <T>(value: () => T | Promise<T>) => new PropKind<T>("optional", value);
export const defer = <T>(value: () => T | Promise<T>, group = "default") => new PropKind<T>("defer", value, group);
export const merge = <T>(value: Resolvable<T>) =>
  new PropKind<T>("merge", value, "default", { mode: "append", matchOn: [] });
export const once = <T>(value: Resolvable<T>, options: { expiresAt?: number } = {}) =>
  new PropKind<T>("once", value, "default", null, options.expiresAt ?? null);

export type Props = Record<string, unknown>;

/** Resolves a value: calls it when it is a function, awaits it when it is a promise. */
export async function resolveValue(value: unknown): Promise<unknown> {
  const v = typeof value === "function" ? (value as () => unknown)() : value;
  return v instanceof Promise ? await v : v;
}
