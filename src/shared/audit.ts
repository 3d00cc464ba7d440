/** The audit trail as pages show it. */

/** What the audit page shows of one entry. */
export interface AuditEntryView {
  id: number;
  createdAt: string;
  /** The action's key (`subdealership.created`) and its words ("Subconcesionaria creada"). */
  action: string;
  actionLabel: string;
  actor: { name: string; kind: "user" | "cli" | "guest" | "deleted" };
  subjectType: string;
  subjectId: number | null;
  subject: { type: string; name: string | null; deleted: boolean };
  /** Each field that changed, by its label; a side is missing when the entry has none (a creation, a deletion). */
  changes: AuditChange[];
}

export interface AuditChange {
  field: string;
  before?: string;
  after?: string;
}
