/** Shows the page's flash messages (`page.flash`) in a polite live region. */
import { usePage } from "@inertiajs/react";
import { CheckCircle2, AlertTriangle } from "lucide-react";

export function FlashMessages() {
  const { flash } = usePage();
  const success = typeof flash?.success === "string" ? flash.success : null;
  const error = typeof flash?.error === "string" ? flash.error : null;
  return (
    <div role="status" aria-live="polite" className="space-y-2 empty:hidden">
      {success && (
        <p
          className="flex items-center gap-2 rounded-md border border-success/40 bg-success/10 px-3 py-2 text-sm"
          data-flash="success"
        >
          <CheckCircle2 className="size-4 text-success" aria-hidden="true" />
          {success}
        </p>
      )}
      {error && (
        <p
          className="flex items-center gap-2 rounded-md border border-destructive/40 bg-destructive/10 px-3 py-2 text-sm"
          data-flash="error"
        >
          <AlertTriangle className="size-4 text-destructive" aria-hidden="true" />
          {error}
        </p>
      )}
    </div>
  );
}
