import type { ComponentType } from "react";

/** What a file under resources/js/pages exports: the page component as default. */
export interface PageModule {
  default: ComponentType<any>;
}

/** The props a page module's component declares. */
export type PropsOf<M> = M extends { default: ComponentType<infer P> }
  ? P
  : M extends { default: (props: infer P) => unknown }
    ? P
    : never;
