/**
 * Short notices (sonner): they appear over the page at the top right, below the header, without moving anything,
 * are announced politely, and leave by themselves (hovering or focusing keeps them). One Toaster per layout;
 * anything may call `notify.success(text)` or `notify.error(text)`.
 */
import { Toaster as Sonner, toast } from "sonner";
import { useI18n } from "../../hooks/use-i18n";

export const notify = toast;

export function Toaster() {
  const { t } = useI18n();
  return (
    <Sonner
      position="top-right"
      offset={{ top: 64, right: 16 }}
      mobileOffset={{ top: 64, left: 8, right: 8 }}
      closeButton
      duration={6000}
      visibleToasts={4}
      containerAriaLabel={t("ui.notifications")}
      toastOptions={{ closeButtonAriaLabel: t("ui.dismiss"), className: "mesa-toast" }}
    />
  );
}
