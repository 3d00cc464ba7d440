/**
 * Builds the page object of the page protocol from a component name, its props and the request's headers:
 * partial reloads, prop kinds (see props.ts), errors and flash.
 */
import { PropKind, resolveValue, type Props } from "./props";
import { log } from "../../log";

export interface Page {
  component: string;
  props: Props & { errors: Record<string, unknown> };
  url: string;
  version: string | null;
  encryptHistory?: boolean;
  clearHistory?: boolean;
  mergeProps?: string[];
  prependProps?: string[];
  deepMergeProps?: string[];
  matchPropsOn?: string[];
  deferredProps?: Record<string, string[]>;
  onceProps?: Record<string, { prop: string; expiresAt: number | null }>;
  /** Deferred props that failed and were rescued (props.ts, `rescue()`): left out, for the client to say so. */
  rescuedProps?: string[];
  sharedProps?: string[];
  flash: Record<string, unknown>;
}

export interface PageOptions {
  component: string;
  /** Props shared by every page (errors, locale, route list…), overridden by the page's own props. */
  shared: Props;
  props: Props;
  url: string;
  version: string | null;
  flash?: Record<string, unknown>;
  encryptHistory?: boolean;
  clearHistory?: boolean;
}

export const HEADER = {
  inertia: "x-inertia",
  version: "x-inertia-version",
  partialComponent: "x-inertia-partial-component",
  partialData: "x-inertia-partial-data",
  partialExcept: "x-inertia-partial-except",
  reset: "x-inertia-reset",
  errorBag: "x-inertia-error-bag",
  exceptOnceProps: "x-inertia-except-once-props",
  location: "x-inertia-location",
  redirect: "x-inertia-redirect",
} as const;

function list(headers: Headers, name: string): string[] {
  const value = headers.get(name);
  return value
    ? value
        .split(",")
        .map((s) => s.trim())
        .filter(Boolean)
    : [];
}

/** True when `path` names `key` itself or something inside it ("auth" for "auth.user"). */
function touches(paths: string[], key: string): boolean {
  return paths.some((p) => p === key || p.startsWith(`${key}.`));
}

/** The sub-paths below `key` named in `paths` ("auth.user" → "user"); empty when `key` itself is named. */
function subPaths(paths: string[], key: string): string[] | null {
  if (paths.includes(key)) return null;
  const nested = paths.filter((p) => p.startsWith(`${key}.`)).map((p) => p.slice(key.length + 1));
  return nested.length ? nested : null;
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** Keeps only the dot paths of `value` named in `paths`. */
function pick(value: unknown, paths: string[]): unknown {
  if (!isPlainObject(value)) return value;
  const out: Record<string, unknown> = {};
  for (const path of paths) {
    const [head, ...rest] = path.split(".");
    if (!(head in value)) continue;
    out[head] = rest.length ? mergeObjects(out[head], pick(value[head], [rest.join(".")])) : value[head];
  }
  return out;
}

function mergeObjects(a: unknown, b: unknown): unknown {
  if (isPlainObject(a) && isPlainObject(b)) {
    const out = { ...a };
    for (const [k, v] of Object.entries(b)) out[k] = mergeObjects(out[k], v);
    return out;
  }
  return b;
}

/** Removes the dot paths of `value` named in `paths`. */
function omit(value: unknown, paths: string[]): unknown {
  if (!isPlainObject(value)) return value;
  const out = { ...value };
  for (const path of paths) {
    const [head, ...rest] = path.split(".");
    if (!(head in out)) continue;
    if (rest.length === 0) delete out[head];
    else out[head] = omit(out[head], [rest.join(".")]);
  }
  return out;
}

/** Builds the page object for `request`. Only the props that will be sent are evaluated. */
export async function buildPage(headers: Headers, options: PageOptions): Promise<Page> {
  const { component } = options;
  const isPartial = headers.get(HEADER.partialComponent) === component;
  const only = isPartial ? list(headers, HEADER.partialData) : [];
  const except = isPartial ? list(headers, HEADER.partialExcept) : [];
  const reset = list(headers, HEADER.reset);
  const exceptOnce = list(headers, HEADER.exceptOnceProps);

  const all: Props = { ...options.shared, ...options.props };
  const props: Props = {};
  const deferredProps: Record<string, string[]> = {};
  const mergeProps: string[] = [];
  const prependProps: string[] = [];
  const deepMergeProps: string[] = [];
  const matchPropsOn: string[] = [];
  const onceProps: Record<string, { prop: string; expiresAt: number | null }> = {};
  const rescuedProps: string[] = [];

  for (const [key, value] of Object.entries(all)) {
    const kind = value instanceof PropKind ? value.kind : "plain";
    const raw = value instanceof PropKind ? value.value : value;

    let include: boolean;
    if (kind === "always") include = true;
    else if (isPartial) include = (only.length === 0 || touches(only, key)) && !except.includes(key);
    else include = kind !== "optional" && kind !== "defer";

    if (!isPartial && kind === "defer") {
      const group = (value as PropKind).group;
      (deferredProps[group] ??= []).push(key);
    }

    if (kind === "once") {
      onceProps[key] = { prop: key, expiresAt: (value as PropKind).expiresAt };
      // The client already holds it; send it again only when a partial reload names it.
      if (exceptOnce.includes(key) && !(isPartial && only.includes(key))) include = false;
    }

    if (!include) continue;

    let resolved: unknown;
    try {
      resolved = await resolveValue(raw);
    } catch (error) {
      if (!(value instanceof PropKind && value.rescued)) throw error;
      log.error({ err: error, prop: key, component }, "a deferred prop failed and was rescued");
      rescuedProps.push(key);
      continue;
    }
    if (isPartial && kind !== "always") {
      const nested = subPaths(only, key);
      if (nested) resolved = pick(resolved, nested);
      const nestedExcept = subPaths(except, key);
      if (nestedExcept) resolved = omit(resolved, nestedExcept);
    }
    props[key] = resolved;

    const mergeOptions = value instanceof PropKind ? value.mergeOptions : null;
    if (mergeOptions && !reset.includes(key)) {
      if (mergeOptions.mode === "append") mergeProps.push(key);
      else if (mergeOptions.mode === "prepend") prependProps.push(key);
      else deepMergeProps.push(key);
      for (const match of mergeOptions.matchOn) matchPropsOn.push(`${key}.${match}`);
    }
  }

  props.errors ??= {};

  const page: Page = {
    component,
    props: props as Page["props"],
    url: options.url,
    version: options.version,
    flash: options.flash ?? {},
  };
  if (options.encryptHistory) page.encryptHistory = true;
  if (options.clearHistory) page.clearHistory = true;
  if (mergeProps.length) page.mergeProps = mergeProps;
  if (prependProps.length) page.prependProps = prependProps;
  if (deepMergeProps.length) page.deepMergeProps = deepMergeProps;
  if (matchPropsOn.length) page.matchPropsOn = matchPropsOn;
  if (Object.keys(deferredProps).length) page.deferredProps = deferredProps;
  if (Object.keys(onceProps).length) page.onceProps = onceProps;
  if (rescuedProps.length) page.rescuedProps = rescuedProps;
  const shared = Object.keys(options.shared);
  if (shared.length) page.sharedProps = shared;
  return page;
}
