/**
 * Importing mines, units, cafes, services and prices from a workbook uploaded on the Management page, and the
 * template to fill in. The file is checked and parsed off the request thread (src/domain/spreadsheets/read.ts),
 * then imported all-or-nothing with the actor's scope and permissions (src/domain/places/import.ts). Problems
 * come back as form errors, one per row, that say where: "Comedores, fila 7 (Empresa): …".
 */
import { asc, eq } from "drizzle-orm";
import { businesses, services } from "../../../db/schema";
import { can } from "../../domain/access/authorization";
import { message, ValidationFailed } from "../../domain/errors";
import { describeCounts, describeProblems, ImportFailed, importPlaces, placesTemplate, type ImportAbilities } from "../../domain/places/import";
import { MAX_WORKBOOK_BYTES, readWorkbook } from "../../domain/spreadsheets/read";
import type { RequestContext } from "../context";
import { access, defineRoutes } from "../routing";
import { exportFileName, xlsxResponse } from "../spreadsheet";

function abilities(ctx: RequestContext): ImportAbilities {
  return { places: can(ctx.access, "places.manage"), services: can(ctx.access, "services.manage"), prices: can(ctx.access, "prices.manage") };
}

/** A business the actor may give a new cafe, for the template's example row. */
function exampleBusiness(ctx: RequestContext): string {
  const scope = ctx.scope;
  const all = ctx.db.select({ id: businesses.id, name: businesses.name }).from(businesses).orderBy(asc(businesses.name)).all();
  const usable = scope.all ? all : all.filter((b) => scope.businessIds.has(b.id));
  return usable[0]?.name ?? (ctx.locale === "es" ? "Empresa S.A.C." : "Business S.A.C.");
}

export const placesImportRoutes = defineRoutes([
  {
    name: "management.import",
    methods: ["POST"],
    uri: "/management/import",
    access: access.can("places.manage"),
    multipart: true,
    // The workbook's own limit (5 MiB) is checked with a clear message; this leaves room for the form around it.
    maxBodyBytes: MAX_WORKBOOK_BYTES + 1024 * 1024,
    handle: async (ctx) => {
      const file = ctx.body.file;
      if (!(file instanceof Blob) || file.size === 0) throw new ValidationFailed({ file: message("import.file_required") });
      const workbook = await readWorkbook(new Uint8Array(await file.arrayBuffer()));
      try {
        const counts = importPlaces(ctx.db, ctx.actor, ctx.scope, abilities(ctx), workbook, { timeZone: ctx.config.timezone });
        ctx.flash("success", describeCounts(counts, (key, params) => ctx.t(key, params)));
      } catch (error) {
        // Each problem becomes a form error whose text names its sheet, row and column.
        if (error instanceof ImportFailed) throw new ValidationFailed(describeProblems(error.problems, (key, params) => ctx.t(key, params)));
        throw error;
      }
      return ctx.back(ctx.urlFor("management.index"));
    },
  },
  {
    name: "management.import_template",
    methods: ["GET"],
    uri: "/management/import/template",
    access: access.can("places.view"),
    handle: (ctx) => {
      // The example rows use an existing service as it is, so importing the template unchanged does not alter it.
      const service = ctx.db.select({ code: services.code, name: services.name, type: services.type, description: services.description }).from(services).where(eq(services.active, true)).orderBy(asc(services.code)).get();
      const sheets = placesTemplate(ctx.locale, { business: exampleBusiness(ctx), timeZone: ctx.config.timezone, service });
      return xlsxResponse(exportFileName(ctx.locale === "es" ? "plantilla-lugares" : "places-template", ctx.config.timezone), sheets);
    },
  },
]);
