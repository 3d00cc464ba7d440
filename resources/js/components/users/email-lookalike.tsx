/**
 * The flag of an account's e-mail that could pass for another's (src/domain/accounts/email-address.ts): why, and
 * the address with its odd characters written as code points, so two look-alike accounts read apart.
 */
import { AlertTriangle } from "lucide-react";
import type { EmailLookalike } from "../../../../src/shared/access/types";
import { useI18n } from "../../hooks/use-i18n";

export function EmailLookalikeFlag({ lookalike }: { lookalike: EmailLookalike }) {
  const { t } = useI18n();
  return (
    <span className="mt-0.5 flex items-start gap-1 text-xs text-destructive" data-testid="email-lookalike">
      <AlertTriangle className="mt-0.5 size-3.5 shrink-0" aria-hidden="true" />
      <span>
        {t(`access.users.email_lookalike.${lookalike.problem}`)}{" "}
        <span className="font-mono break-all">
          {t("access.users.email_lookalike.reads", { address: lookalike.revealed })}
        </span>
      </span>
    </span>
  );
}
