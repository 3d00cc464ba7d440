/**
 * Confirmations on Radix's AlertDialog: a question (the title) and what it will do (the description: "3 cafes lose
 * this service and their prices end"), a cancel button, which has the focus when it opens, and the confirm button,
 * red when the action destroys something. Escape cancels; a click outside does nothing.
 *
 * `ConfirmDialog` is the component; `useConfirm()` asks from an event handler and answers with a promise:
 *
 *     const confirm = useConfirm();
 *     if (await confirm({ title: "¿Eliminar la sede Lima?", description: t("ui.consequences.permanent") }))
 *       router.delete(url);
 */
import * as AlertDialogPrimitive from "@radix-ui/react-alert-dialog";
import { createContext, useCallback, useContext, useState, type ReactNode } from "react";
import { useI18n } from "../../hooks/use-i18n";
import { cn } from "../../lib/utils";
import { buttonClasses } from "./button";
import { modalClasses, overlayClasses, returnFocus, useOpener } from "./dialog";

export interface ConfirmOptions {
  /** The question: "¿Eliminar la empresa Sierra S.A.C.?" */
  title: string;
  /** The consequence, in words a person weighs: what is lost or changed. */
  description: ReactNode;
  /** The confirm button's text (Delete by default). */
  confirmLabel?: string;
  cancelLabel?: string;
  /** A red confirm button, for actions that destroy something (the default). */
  destructive?: boolean;
}

export function ConfirmDialog({
  open,
  title,
  description,
  children,
  confirmLabel,
  cancelLabel,
  destructive = true,
  busy = false,
  onConfirm,
  onCancel,
}: ConfirmOptions & {
  open: boolean;
  /** More detail under the description (a list of what is affected, errors). */
  children?: ReactNode;
  busy?: boolean;
  onConfirm: () => void;
  onCancel: () => void;
}) {
  const { t } = useI18n();
  const opener = useOpener(open);
  return (
    <AlertDialogPrimitive.Root open={open} onOpenChange={(next) => !next && onCancel()}>
      <AlertDialogPrimitive.Portal>
        <AlertDialogPrimitive.Overlay className={overlayClasses} />
        <AlertDialogPrimitive.Content
          className={cn(modalClasses, "max-w-md space-y-4 p-5")}
          onCloseAutoFocus={(event) => returnFocus(event, opener.current)}
          data-testid="confirm-dialog"
        >
          <div className="space-y-2">
            <AlertDialogPrimitive.Title className="text-lg font-semibold leading-snug">
              {title}
            </AlertDialogPrimitive.Title>
            <AlertDialogPrimitive.Description className="text-sm text-muted-foreground">
              {description}
            </AlertDialogPrimitive.Description>
          </div>
          {children}
          <div className="flex flex-col-reverse gap-2 pt-1 sm:flex-row sm:justify-end">
            <AlertDialogPrimitive.Cancel className={buttonClasses("outline")}>
              {cancelLabel ?? t("ui.cancel")}
            </AlertDialogPrimitive.Cancel>
            {/* Not an AlertDialog.Action: confirming may wait for the server, which closes the dialog itself. */}
            <button
              type="button"
              className={buttonClasses(destructive ? "destructive" : "primary")}
              disabled={busy}
              onClick={onConfirm}
            >
              {confirmLabel ?? t(destructive ? "ui.delete" : "ui.confirm")}
            </button>
          </div>
        </AlertDialogPrimitive.Content>
      </AlertDialogPrimitive.Portal>
    </AlertDialogPrimitive.Root>
  );
}

type Ask = (options: ConfirmOptions) => Promise<boolean>;

const ConfirmContext = createContext<Ask | null>(null);

/** Holds the one confirmation a page can ask at a time; the app layout wraps every page in it. */
export function ConfirmProvider({ children }: { children: ReactNode }) {
  const [request, setRequest] = useState<{ options: ConfirmOptions; resolve: (answer: boolean) => void } | null>(null);
  const ask = useCallback<Ask>(
    (options) =>
      new Promise<boolean>((resolve) =>
        setRequest((previous) => {
          previous?.resolve(false);
          return { options, resolve };
        }),
      ),
    [],
  );
  const answer = (value: boolean) => {
    request?.resolve(value);
    setRequest(null);
  };
  return (
    <ConfirmContext.Provider value={ask}>
      {children}
      {request && (
        <ConfirmDialog open {...request.options} onConfirm={() => answer(true)} onCancel={() => answer(false)} />
      )}
    </ConfirmContext.Provider>
  );
}

/** Asks for a confirmation in a dialog; resolves true when confirmed, false when cancelled. */
export function useConfirm(): Ask {
  const ask = useContext(ConfirmContext);
  if (!ask) throw new Error("useConfirm() needs a ConfirmProvider around the page (the app layout has one).");
  return ask;
}
