/**
 * The three writes of a record kept through a page's dialogs, as routes of the registry:
 *
 * - `<name>.store`: POST `/things`, creates one;
 * - `<name>.update`: PUT (or PATCH) `/things/{thing}`, changes one;
 * - `<name>.destroy`: DELETE `/things/{thing}`, deletes one,
 *
 * `/things/{thing}` being the record's URI, its parameter a positive whole number bound to the record's `id`.
 *
 * Each hands the request to the domain (which parses the body and checks scope and rules), flashes what was done in
 * the viewer's words, and goes back to the page the dialog was on (or `back` when the request names none).
 */
import type { RequestContext } from "./context";
import type { Access, RouteDefinition } from "./routing";

/** `R`: what a create or an update gives back; `D`: what a delete does. */
export interface RecordWrites<R, D = R> {
  /** The update's method: PUT unless said. */
  updateMethod?: "PUT" | "PATCH";
  /** Which writes ask for a recent password confirmation: none unless said. */
  confirmPassword?: "every-write" | "update-and-destroy";
  create: (ctx: RequestContext) => R;
  update: (ctx: RequestContext, id: number) => R;
  destroy: (ctx: RequestContext, id: number) => D;
  /** The flash after a create or an update, and after a delete. */
  saved: (ctx: RequestContext, record: R) => string;
  deleted: (ctx: RequestContext, record: D) => string;
  /** The page to go back to when the request names none. */
  back: (ctx: RequestContext) => string;
}

/**
 * The store, update and destroy routes of a record (see the top of this file): `recordWrites("cities",
 * "/cities/{city}", access.can("logistics.manage"), { create, update, destroy, saved, deleted, back })`.
 */
export function recordWrites<R, D = R>(
  name: string,
  one: string,
  access: Access,
  spec: RecordWrites<R, D>,
): RouteDefinition[] {
  const parts = /^(\/.+)\/\{(\w+)\}$/.exec(one);
  if (!parts) throw new Error(`"${one}" is no record URI (/things/{thing})`);
  const [, uri, param] = parts;
  const wheres = { [param]: "\\d+" };
  const bindings = { [param]: "id" };
  const confirmed = (store: boolean) =>
    spec.confirmPassword === "every-write" || (!store && spec.confirmPassword === "update-and-destroy")
      ? { confirmPassword: true }
      : {};
  const done = (ctx: RequestContext, text: string) => {
    ctx.flash("success", text);
    return ctx.back(spec.back(ctx));
  };
  const id = (ctx: RequestContext) => Number(ctx.params[param]);
  return [
    {
      name: `${name}.store`,
      methods: ["POST"],
      uri,
      access,
      ...confirmed(true),
      handle: (ctx) => done(ctx, spec.saved(ctx, spec.create(ctx))),
    },
    {
      name: `${name}.update`,
      methods: [spec.updateMethod ?? "PUT"],
      uri: one,
      wheres,
      bindings,
      access,
      ...confirmed(false),
      handle: (ctx) => done(ctx, spec.saved(ctx, spec.update(ctx, id(ctx)))),
    },
    {
      name: `${name}.destroy`,
      methods: ["DELETE"],
      uri: one,
      wheres,
      bindings,
      access,
      ...confirmed(false),
      handle: (ctx) => done(ctx, spec.deleted(ctx, spec.destroy(ctx, id(ctx)))),
    },
  ];
}
