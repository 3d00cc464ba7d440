/**
 * A cafe's display links on the display page (holders of `menu.display_links`): the list (label, made when and by
 * whom, last used, revoked), a New-link dialog that shows the full link once — the server keeps only a hash of its
 * token, so it cannot be shown again — and revoking, which closes the board at once.
 */
import { router } from "@inertiajs/react";
import { Copy, Plus } from "lucide-react";
import { useState, type FormEvent } from "react";
import type { DisplayLinkRow } from "../../../../src/shared/menu/types";
import { fieldErrors, requestJson } from "../../lib/json-client";
import { Button } from "../ui/button";
import { Dialog, DialogActions } from "../ui/dialog";

const ACTIONS = "flex flex-col-reverse gap-2 pt-2 sm:flex-row sm:justify-end";
import { Field } from "../ui/field";
import { useConfirm } from "../ui/alert-dialog";
import { useI18n } from "../../hooks/use-i18n";
import { useRoute } from "../../hooks/use-route";

export function BoardLinks({ cafeId, links }: { cafeId: number; links: DisplayLinkRow[] }) {
  const { t, dateTime } = useI18n();
  const route = useRoute();
  const confirm = useConfirm();
  const [open, setOpen] = useState(false);
  const [label, setLabel] = useState("");
  const [error, setError] = useState<string | undefined>();
  const [made, setMade] = useState<{ url: string; label: string } | null>(null);
  const [copied, setCopied] = useState(false);
  const [busy, setBusy] = useState(false);

  const close = () => {
    setOpen(false);
    setMade(null);
    setLabel("");
    setError(undefined);
    setCopied(false);
  };

  const create = async (event: FormEvent) => {
    event.preventDefault();
    setBusy(true);
    const answer = await requestJson<{ url: string; link: DisplayLinkRow; message?: string }>(
      "POST",
      route("menu.display_links.store"),
      { cafe: cafeId, label },
    );
    setBusy(false);
    if (answer.status === 201 && answer.body) {
      setMade({ url: answer.body.url, label: answer.body.link.label });
      router.reload({ only: ["links"] });
      return;
    }
    const errors = fieldErrors(answer.body);
    setError(errors.label ?? answer.body?.message ?? t("menuBoard.links.failed"));
  };

  const revoke = async (link: DisplayLinkRow) => {
    const yes = await confirm({
      title: t("menuBoard.links.revoke_title", { label: link.label }),
      description: t("menuBoard.links.revoke_description"),
      confirmLabel: t("menuBoard.links.revoke"),
    });
    if (yes) router.delete(route("menu.display_links.destroy", { link: link.id }), { preserveScroll: true });
  };

  return (
    <section aria-labelledby="display-links" className="flex flex-col gap-3">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <h2 id="display-links" className="text-lg font-semibold">
          {t("menuBoard.links.title")}
        </h2>
        <Button onClick={() => setOpen(true)}>
          <Plus className="size-4" aria-hidden /> {t("menuBoard.links.new")}
        </Button>
      </div>
      {links.length === 0 ? (
        <p className="text-muted-foreground">{t("menuBoard.links.none")}</p>
      ) : (
        <div className="overflow-x-auto">
          <table className="w-full text-sm">
            <thead className="text-left text-muted-foreground">
              <tr>
                <th className="py-2 pr-4 font-medium">{t("menuBoard.links.label")}</th>
                <th className="py-2 pr-4 font-medium">{t("menuBoard.links.created")}</th>
                <th className="py-2 pr-4 font-medium">{t("menuBoard.links.last_used")}</th>
                <th className="py-2 pr-4 font-medium">{t("menuBoard.links.state")}</th>
                <th className="py-2 font-medium">
                  <span className="sr-only">{t("menuBoard.links.actions")}</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {links.map((link) => (
                <tr key={link.id} className="border-t border-border" data-testid="display-link">
                  <td className="py-2 pr-4 font-medium">{link.label}</td>
                  <td className="py-2 pr-4">
                    {dateTime(link.createdAt)}
                    {link.createdBy && (
                      <span className="block text-muted-foreground">
                        {t("menuBoard.links.by", { name: link.createdBy })}
                      </span>
                    )}
                  </td>
                  <td className="py-2 pr-4">
                    {link.lastUsedAt ? dateTime(link.lastUsedAt) : t("menuBoard.links.never")}
                  </td>
                  <td className="py-2 pr-4">
                    {link.revokedAt
                      ? t("menuBoard.links.revoked_at", { when: dateTime(link.revokedAt) })
                      : t("menuBoard.links.active")}
                  </td>
                  <td className="py-2 text-right">
                    {!link.revokedAt && (
                      <Button variant="outline" size="sm" onClick={() => revoke(link)}>
                        {t("menuBoard.links.revoke")}
                      </Button>
                    )}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      <Dialog
        open={open}
        onClose={close}
        title={made ? t("menuBoard.links.made_title") : t("menuBoard.links.new")}
        description={made ? t("menuBoard.links.made_once") : t("menuBoard.links.new_description")}
        closeLabel={t("menuBoard.links.close")}
      >
        {made ? (
          <div className="flex flex-col gap-3">
            <label className="flex flex-col gap-1 text-sm font-medium">
              {made.label}
              <input
                readOnly
                value={made.url}
                className="rounded-md border border-input bg-background px-3 py-2 font-mono text-sm"
                onFocus={(event) => event.currentTarget.select()}
                data-testid="display-link-url"
              />
            </label>
            <div className={ACTIONS}>
              <Button
                variant="outline"
                onClick={() => {
                  void navigator.clipboard?.writeText(made.url).then(() => setCopied(true));
                }}
              >
                <Copy className="size-4" aria-hidden />{" "}
                {copied ? t("menuBoard.links.copied") : t("menuBoard.links.copy")}
              </Button>
              <Button onClick={close}>{t("menuBoard.links.done")}</Button>
            </div>
          </div>
        ) : (
          <form onSubmit={create} className="flex flex-col gap-3">
            <Field
              label={t("menuBoard.links.label")}
              hint={t("menuBoard.links.label_hint")}
              value={label}
              onChange={(event) => setLabel(event.target.value)}
              error={error}
              maxLength={80}
              required
              autoFocus
            />
            <DialogActions
              onCancel={close}
              cancelLabel={t("menuBoard.links.cancel")}
              submitLabel={t("menuBoard.links.create")}
              busy={busy}
            />
          </form>
        )}
      </Dialog>
    </section>
  );
}
