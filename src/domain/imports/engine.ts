/**
 * The one import engine: every spreadsheet import (places, diners, ingredients, dishes) goes through the same five
 * steps, and this module holds what they share.
 *
 * 1. **Read** the file through the one spreadsheet intake (src/domain/spreadsheets): each format checked for what it
 *    is, parsed in a worker with a time limit, refused with a message keyed `file`.
 * 2. **Check** every row against the database as it is now, collecting problems (`ImportProblem`: row, column and
 *    a message) rather than stopping at the first.
 * 3. **Preview**: what importing would create, change or leave alone, and a fingerprint (`Fingerprint`) of every
 *    write with the values it starts from. Nothing is written.
 * 4. **Confirm**: the person sends the preview's fingerprint back. The importer plans again and `confirmPlan`
 *    refuses with `ImportRefused` when rows have problems and with `PlanChanged` (carrying the new preview) when
 *    the plan differs from the one confirmed, so exactly what was shown is written or nothing is.
 * 5. **Write** in short transactions (`writeInChunks` between pauses, so sales go on) and **report** the counts.
 *    An import that writes in chunks keeps what it wrote invisible until its last chunk (the dishes import
 *    stages its rows; decision 015 describes the diner import's ledger).
 *
 * `ImportRefused` is a ValidationFailed (422) and `PlanChanged` a Conflict (409), so src/http/errors.ts maps both
 * to their statuses with every other domain error; a route or a job only adds the preview to what it shows.
 */
import { Conflict, ValidationFailed } from "../errors";
import type { Message } from "../../shared/message";

export type { ImportProblem } from "../../shared/imports";

/** The rows have problems (listed in the plan): nothing was written. */
export class ImportRefused<Plan> extends ValidationFailed {
  constructor(
    readonly plan: Plan,
    errors: Record<string, Message>,
  ) {
    super(errors);
  }
}

/** The data changed between the preview and the confirmation: nothing was written; `plan` is what importing would do now. */
export class PlanChanged<Plan> extends Conflict {
  constructor(
    readonly plan: Plan,
    detail: Message,
  ) {
    super(detail);
  }
}

/** What every plan carries for the confirmation step. */
export interface ConfirmablePlan {
  fingerprint: string;
  problems: readonly unknown[];
}

/**
 * The confirmation check, the same for every importer: a plan with problems is refused, and a plan whose
 * fingerprint is not the confirmed one changed meanwhile. `expected` undefined (the command line's one-step
 * import) confirms whatever the plan is.
 */
export function confirmPlan<Plan extends ConfirmablePlan>(
  plan: Plan,
  expected: string | undefined,
  words: { refused: (plan: Plan) => Record<string, Message>; changed: Message },
): void {
  if (plan.problems.length) throw new ImportRefused(plan, words.refused(plan));
  if (expected !== undefined && expected !== plan.fingerprint) throw new PlanChanged(plan, words.changed);
}

/**
 * A fingerprint of a plan: every write with the values it starts from and sets, hashed as it is planned (a few
 * hundred values at a time: one hasher call per value costs more than the hashing).
 */
export class Fingerprint {
  private readonly hash = new Bun.CryptoHasher("sha256");
  private pending: string[] = [];

  add(value: unknown): void {
    this.pending.push(JSON.stringify(value));
    if (this.pending.length >= 512) this.flush();
  }

  private flush(): void {
    if (this.pending.length) this.hash.update(this.pending.join("\n") + "\n");
    this.pending = [];
  }

  /** The fingerprint, as URL-safe text a form can send back. */
  digest(): string {
    this.flush();
    return this.hash.digest("base64url");
  }
}

/** How long one chunk of writes may hold the database, and the pause that lets sales in between. */
export interface ChunkPacing {
  chunkMs: number;
  pauseMs: number;
}

/**
 * Runs `write` over `items` in chunks, each chunk one call (the caller wraps it in its own short transaction),
 * as many items as fit in `pacing.chunkMs`, with a pause between chunks so other requests are served. `progress`
 * hears how many are written after each chunk. Returns how many chunks it took.
 */
export async function writeInChunks<T>(
  items: readonly T[],
  pacing: ChunkPacing,
  write: (chunk: readonly T[]) => void,
  progress: (done: number, total: number) => void = () => {},
): Promise<number> {
  let size = 64;
  let done = 0;
  let chunks = 0;
  while (done < items.length) {
    const chunk = items.slice(done, done + size);
    const started = performance.now();
    write(chunk);
    const took = performance.now() - started;
    done += chunk.length;
    chunks++;
    progress(done, items.length);
    // The next chunk sized to fill the time allowed, never more than doubling.
    size = Math.max(16, Math.min(size * 2, Math.floor((chunk.length * pacing.chunkMs) / Math.max(took, 0.1))));
    if (done < items.length) await Bun.sleep(pacing.pauseMs);
  }
  return chunks;
}
