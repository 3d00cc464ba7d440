/**
 * A places import's preview in words: its problems, counts, skipped examples and planned changes, in the language
 * of a `translate`.
 */
import { message, type Message } from "../../../shared/message";
import type { Translate } from "../../../shared/i18n";
import { centsToSoles } from "../../../shared/money";
import { SERVICE_TYPES, type ServiceType } from "../../../../db/schema";
import {
  IMPORT_KINDS,
  MAX_LISTED_PROBLEMS,
  type ChangedField,
  type ImportCounts,
  type ImportPreview,
  type ImportProblem,
  type PlannedChange,
} from "./types";

const keyPart = (text: string) => text.replace(/\./g, " ");

/** Each listed problem with its key `rows.<sheet>.<row>[.<column>]` (unique), and how many were left unlisted. */
function keyed(problems: ImportProblem[]): { entries: [string, ImportProblem][]; unlisted: number } {
  const entries: [string, ImportProblem][] = [];
  const used = new Set<string>();
  for (const p of problems.slice(0, MAX_LISTED_PROBLEMS)) {
    const base = `rows.${keyPart(p.sheet)}.${p.row}${p.column ? `.${keyPart(p.column)}` : ""}`;
    let key = base;
    for (let n = 2; used.has(key); n++) key = `${base}.${n}`;
    used.add(key);
    entries.push([key, p]);
  }
  return { entries, unlisted: Math.max(0, problems.length - MAX_LISTED_PROBLEMS) };
}

export function problemErrors(problems: ImportProblem[]): Record<string, Message> {
  const { entries, unlisted } = keyed(problems);
  const errors: Record<string, Message> = Object.fromEntries(entries.map(([key, p]) => [key, p.message]));
  if (unlisted) errors["rows.more"] = message("import.more_problems", { count: unlisted });
  return errors;
}

/** The problems as form errors whose text says where: `{"rows.Comedores.7.Empresa": "Comedores, fila 7 (Empresa): …"}`. */
export function describeProblems(problems: ImportProblem[], translate: Translate): Record<string, string> {
  const { entries, unlisted } = keyed(problems);
  const errors: Record<string, string> = Object.fromEntries(
    entries.map(([key, p]) => [key, describeProblem(p, translate)]),
  );
  if (unlisted) errors["rows.more"] = translate("import.more_problems", { count: unlisted });
  return errors;
}

/** A problem as one line of text: "Comedores, fila 7 (Empresa): …", in the language of `translate`. */
export function describeProblem(problem: ImportProblem, translate: Translate): string {
  const where = problem.column
    ? translate("import.row_column_label", { sheet: problem.sheet, row: problem.row, column: problem.column })
    : translate("import.row_label", { sheet: problem.sheet, row: problem.row });
  const text =
    typeof problem.message === "string"
      ? translate(problem.message)
      : translate(problem.message.key, problem.message.params);
  return `${where}: ${text}`;
}

/**
 * One line per kind the workbook names: "2 comedores nuevos, 1 comedor con cambios, 5 comedores sin cambios"
 * (kinds it does not name are left out, and so are counts of zero).
 */
export function describeCounts(counts: ImportCounts, translate: Translate): string[] {
  const lines: string[] = [];
  for (const kind of IMPORT_KINDS) {
    const tally = counts[kind];
    const parts = (["created", "updated", "unchanged"] as const)
      .filter((outcome) => tally[outcome] > 0)
      .map((outcome) => translate(`import.count.${kind}.${outcome}`, { count: tally[outcome] }));
    if (parts.length) lines.push(parts.join(", "));
  }
  return lines;
}

/** The rows skipped as examples, as one sentence: "Se omitieron 5 filas de ejemplo (Minas fila 2, …)." */
export function describeExamples(preview: ImportPreview, translate: Translate): string | null {
  const count = preview.examples.length + preview.moreExamples;
  if (count === 0) return null;
  const rows = preview.examples
    .map((e) => translate("import.row_label", { sheet: e.sheet, row: e.row }))
    .concat(preview.moreExamples ? [translate("import.and_more", { count: preview.moreExamples })] : [])
    .join("; ");
  return translate("import.examples_skipped", { count, rows });
}

// A non-breaking space keeps "S/ 12.50" on one line.
const soles = (cents: number) => `S/\u00a0${centsToSoles(cents)}`;

const isServiceType = (value: unknown): value is ServiceType => (SERVICE_TYPES as readonly unknown[]).includes(value);

function fieldValue(change: ChangedField, value: ChangedField["before"], translate: Translate): string {
  if (value === null || value === "") return translate("import.value_none");
  if (change.field === "price" && typeof value === "number") return soles(value);
  if (change.field === "active") return translate(value ? "import.value_yes" : "import.value_no");
  if (change.field === "type" && isServiceType(value)) return translate(`import.type.${value}`);
  return String(value);
}

/**
 * A planned change as one line: "Nuevo comedor: Mina Este › Unidad E1 › Comedor E1 — Empresa: …; Zona horaria: …",
 * "Precio de DES en Mina Norte › Unidad A › Comedor A: S/ 10.00 → S/ 12.50".
 */
export function describeChange(change: PlannedChange, translate: Translate): string {
  if (change.kind === "price") {
    const price = change.fields?.find((f) => f.field === "price");
    return translate(`import.change.price_${change.action}`, {
      code: change.path.at(-1) ?? "",
      subject: change.path.slice(0, -1).join(" › "),
      before: price ? fieldValue(price, price.before, translate) : "",
      after: price ? fieldValue(price, price.after, translate) : "",
    });
  }
  const subject = change.path.join(change.kind === "service" ? " — " : " › ");
  const details: string[] = [];
  for (const f of change.fields ?? []) {
    const label = translate(`import.field.${f.field}`);
    const after = fieldValue(f, f.after, translate);
    details.push(
      change.action === "created" ? `${label}: ${after}` : `${label}: ${fieldValue(f, f.before, translate)} → ${after}`,
    );
  }
  if (change.added?.length)
    details.push(
      translate(change.action === "created" ? "import.field.services" : "import.field.services_added", {
        codes: change.added.join(", "),
      }),
    );
  const text = translate(`import.change.${change.kind}_${change.action}`, { subject });
  return details.length ? `${text} — ${details.join("; ")}` : text;
}
