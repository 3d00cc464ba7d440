/** The mark of an other-unit sale (sold at a cafe that is not the diner's, at the other-unit price). */
import { useI18n } from "../../hooks/use-i18n";

export function OtherUnitMark() {
  const { t } = useI18n();
  return (
    <span className="rounded bg-amber-500/20 px-1 text-xs text-amber-900 dark:text-amber-200">
      {t("sales.page.other_unit_mark")}
    </span>
  );
}
