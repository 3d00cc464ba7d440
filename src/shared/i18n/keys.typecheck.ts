/**
 * Compile-time proof that translation keys are checked: every line under `@ts-expect-error` must fail to compile, so
 * `npm run typecheck` fails the day a typo in a key used by a page, the server or the command line would slip
 * through (and would show the key to people). Never run; nothing imports it.
 */
import type { useI18n } from "../../../resources/js/hooks/use-i18n";
import type { ProgressReporter } from "../../../cli/progress";
import { ValidationFailed } from "../../domain/errors";
import { message } from "../message";
import { t as schema } from "../../domain/validation";
import type { RequestContext } from "../../http/context";
import { translate, translateDynamic, type KeysUnder, type Translate, type TranslationKey } from "./index";

export function keyChecks(
  ctx: RequestContext,
  i18n: ReturnType<typeof useI18n>,
  cli: Translate,
  progress: ProgressReporter,
  fromData: string,
): void {
  // A text, and a plural entry (the entry is the key).
  translate("es", "nav.dashboard");
  translate("en", "errors.retry_after", { count: 3 });
  // @ts-expect-error a misspelt key
  translate("es", "nav.dashbord");
  // @ts-expect-error a plural entry's category is not a key of its own
  translate("es", "errors.retry_after.one");
  // @ts-expect-error a group of texts is not a text
  translate("es", "errors.title");
  // @ts-expect-error any string is not a key
  translate("es", fromData);

  // The browser's t (useI18n), the server's ctx.t and messages, the command line's translator.
  i18n.t("nav.dashboard");
  // @ts-expect-error a misspelt key, in a page
  i18n.t("nav.dashbord");
  ctx.t("validation.failed");
  // @ts-expect-error a misspelt key, on the server
  ctx.t("validation.faild");
  void new ValidationFailed({ name: "validation.required", email: message("validation.email_taken") });
  // @ts-expect-error a misspelt key in a domain message
  void new ValidationFailed({ name: "validation.requird" });
  // @ts-expect-error a misspelt key in a domain message with params
  void message("validation.min_lenght", { min: 3 });
  cli("access.cli.permission_table", { permissions: 1, routes: 1 });
  // @ts-expect-error a misspelt key, on the command line
  cli("access.cli.permision_table");
  progress.update(1, 2, "import.progress_checking");
  // @ts-expect-error a job's progress label is a key too
  progress.update(1, 2, "import.progress_cheking");
  schema.String({ messageKey: "validation.email" });
  // @ts-expect-error a schema's message is a key too
  schema.String({ messageKey: "validation.emial" });

  // Keys built from a known set: a template over a union, or the keys under a prefix.
  const type = "dni" as "dni" | "ce" | "pas";
  translate("es", `documents.${type}`);
  const wider = "dni" as "dni" | "ce" | "pas" | "ruc";
  // @ts-expect-error one of the names has no text
  translate("es", `documents.${wider}`);
  const report = (key: KeysUnder<"reports">): TranslationKey => `reports.${key}`;
  report("sheets.summary");
  // @ts-expect-error not a key under the prefix
  report("sheets.summery");

  // A key from data goes through translateDynamic, with what to show when the dictionary has none.
  translateDynamic("es", `access.permission_areas.${fromData}`, fromData);
  i18n.tDynamic(`food.allergens.${fromData}`, fromData);
}
