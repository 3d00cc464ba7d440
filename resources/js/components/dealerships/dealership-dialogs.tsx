/**
 * The dialogs and delete confirmations the three Dealerships pages share: which dialog is open, and the
 * dealership and subdealership dialogs rendered from that state.
 */
import { router } from "@inertiajs/react";
import { useState } from "react";
import { useI18n } from "../../hooks/use-i18n";
import { useRoute } from "../../hooks/use-route";
import { useConfirm } from "../ui/alert-dialog";
import { DealershipDialog } from "./dealership-dialog";
import { SubdealershipDialog } from "./subdealership-dialog";
import type { DealershipDialogProps, DealershipRow, SubdealershipRow } from "./types";

export type OpenDealershipDialog =
  | { kind: "dealership"; dealership: DealershipRow | null }
  | { kind: "subdealership"; subdealership: SubdealershipRow | null; dealershipId?: number }
  | null;

/** The open dialog, and the deletes, confirmed in a dialog first (they go back to the same page). */
export function useDealershipModals() {
  const { t } = useI18n();
  const route = useRoute();
  const confirm = useConfirm();
  const [modal, setModal] = useState<OpenDealershipDialog>(null);
  return {
    modal,
    setModal,
    close: () => setModal(null),
    deleteDealership: async (row: DealershipRow) => {
      const confirmed = await confirm({
        title: t("dealerships.confirm_delete", { name: row.name }),
        description: t("ui.consequences.permanent"),
      });
      if (confirmed)
        router.delete(route("dealerships.destroy", { dealership: row.id }), {
          preserveScroll: true,
          preserveState: true,
        });
    },
    deleteSubdealership: async (row: SubdealershipRow) => {
      const units = row.units.length + row.hiddenUnits;
      const confirmed = await confirm({
        title: t("dealerships.confirm_delete_subdealership", { name: row.name }),
        description:
          units === 0 ? t("ui.consequences.permanent") : t("ui.consequences.subdealership", { count: units }),
      });
      if (confirmed)
        router.delete(route("subdealerships.destroy", { subdealership: row.id }), {
          preserveScroll: true,
          preserveState: true,
        });
    },
  };
}

export function DealershipDialogs({
  modal,
  close,
  dialog,
}: {
  modal: OpenDealershipDialog;
  close: () => void;
  dialog: DealershipDialogProps;
}) {
  if (modal?.kind === "dealership")
    return <DealershipDialog dealership={modal.dealership} rucLength={dialog.rucLength} onClose={close} />;
  if (modal?.kind === "subdealership")
    return (
      <SubdealershipDialog
        subdealership={modal.subdealership}
        dealershipId={modal.dealershipId}
        dealershipOptions={dialog.dealershipOptions}
        unitChoices={dialog.unitChoices}
        rucLength={dialog.rucLength}
        onClose={close}
      />
    );
  return null;
}
