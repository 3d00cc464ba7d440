/** An offer's prices, newest first: each with its date, who set it, whether it included IGV and the cost it made. */
import { Table, td } from "../data-table";
import { Dialog } from "../ui/dialog";
import type { PriceHistoryRow } from "./types";
import { useFoodWords } from "./use-food-words";

export interface OfferHistory {
  offerId: number;
  presentation: string;
  rows: PriceHistoryRow[];
}

export function OfferHistoryDialog({
  history,
  baseUnit,
  title,
  onClose,
}: {
  history: OfferHistory;
  baseUnit: "g" | "ml" | "unit";
  title: string;
  onClose: () => void;
}) {
  const { t, money, dateTime, quantity } = useFoodWords();
  return (
    <Dialog
      open
      wide
      onClose={onClose}
      title={title}
      description={t("food.offers.history_description")}
      closeLabel={t("food.close")}
    >
      <Table
        caption={title}
        headers={[
          t("food.offers.history_date"),
          t("food.offers.price"),
          t("food.offers.quantity"),
          t("food.offers.cost_per_reference_header"),
          t("food.offers.history_by"),
        ]}
        empty={history.rows.length === 0 ? t("food.offers.history_none") : null}
      >
        {history.rows.map((row) => (
          <tr key={row.id}>
            <td className={td}>{dateTime(row.changedAt)}</td>
            <td className={`${td} tabular-nums`}>
              {money(row.priceCents)}{" "}
              <span className="text-xs text-muted-foreground">
                {t(row.priceIncludesIgv ? "food.offers.with_igv" : "food.offers.without_igv")}
              </span>
            </td>
            <td className={`${td} tabular-nums`}>{quantity(row.quantity, baseUnit)}</td>
            <td className={`${td} tabular-nums`}>
              {money(row.costPerReferenceCents)} {t(`food.per_reference.${baseUnit}`)}
            </td>
            <td className={td}>{row.changedByName || t("food.offers.history_cli")}</td>
          </tr>
        ))}
      </Table>
    </Dialog>
  );
}
