/**
 * The pages the server may render and the props each declares, from the page files (resources/js/pages.generated.ts,
 * written by `./mesa assets:build`). `ctx.render()` accepts only a page that exists, with the props its component
 * declares: each as a value, a function that yields it, or a prop kind (always, optional, defer, merge, once).
 * Props every page receives (shared-props.ts) are left out.
 */
import type { PageProps } from "../../../resources/js/pages.generated";
import type { SharedProps } from "../../../resources/js/types";
import type { PropKind, Resolvable } from "./props";

export type PageName = keyof PageProps;

/** The named props of SharedProps (its index signature left out), which shared-props.ts sends to every page. */
type SharedKey = {
  [K in keyof SharedProps]: string extends K ? never : number extends K ? never : K;
}[keyof SharedProps];

type OwnProps<N extends PageName> = Omit<PageProps[N], SharedKey>;

/** What the server passes for one prop of type T. */
type ServerProp<T> = Resolvable<T> | PropKind<T> | PropKind<NonNullable<T>>;

/** A page's own props as the server passes them. */
export type ServerProps<N extends PageName> = { [K in keyof OwnProps<N>]: ServerProp<OwnProps<N>[K]> };

interface RenderOptions {
  status?: number;
}

/** The arguments after a page's name: its props (optional when it declares none that are required), and options. */
export type RenderArguments<N extends PageName> =
  Partial<ServerProps<N>> extends ServerProps<N>
    ? [props?: ServerProps<N>, options?: RenderOptions]
    : [props: ServerProps<N>, options?: RenderOptions];
