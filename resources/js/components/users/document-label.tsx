/** A document in a table: its type's short code (DNI, CE, PAS), muted, then the number. */
import type { DocumentType } from "../../../../src/shared/documents";

export function DocumentLabel({ type, number }: { type: DocumentType; number: string }) {
  return (
    <>
      <span className="text-muted-foreground">{type.toUpperCase()}</span> {number}
    </>
  );
}
