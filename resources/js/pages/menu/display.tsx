/**
 * Display (route `menu.display`): a cafe's board as its dining room sees it, live, for signed-in holders of
 * `menu.view`; publishing a range of days (`menu.publish`); and the cafe's display links (`menu.display_links`).
 */
import { Head, router, useForm } from "@inertiajs/react";
import type { FormEvent } from "react";
import type { Board } from "../../../../src/shared/menu/types";
import type { DisplayLinkRow } from "../../../../src/shared/menu/types";
import { BoardLinks } from "../../components/menu/board-links";
import { MenuTabs } from "../../components/menu/menu-tabs";
import type { MenuTab } from "../../components/menu/structure-types";
import { useSignedInBoardLive } from "../../components/menu/board-live";
import { BoardView } from "../../components/menu/board-view";
import { Button } from "../../components/ui/button";
import { DateField } from "../../components/ui/date-picker";
import { PageHeader } from "../../components/ui/page-header";
import { SelectField } from "../../components/ui/select-field";
import { useI18n } from "../../hooks/use-i18n";
import { useRoute } from "../../hooks/use-route";
import { addDays } from "../../../../src/shared/calendar";

interface Props {
  tabs: MenuTab[];
  cafes: { id: number; name: string; path: string }[];
  cafeId: number | null;
  board: Board | null;
  links: DisplayLinkRow[] | null;
  can: { manageLinks: boolean; publish: boolean };
}

function PublishForm({ cafeId, today }: { cafeId: number; today: string }) {
  const { t } = useI18n();
  const route = useRoute();
  const form = useForm({ cafe: cafeId, from: today, to: addDays(today, 6) });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    form.post(route("menu.publish"), { preserveScroll: true });
  };
  return (
    <form onSubmit={submit} className="flex flex-wrap items-end gap-3" aria-labelledby="publish-title">
      <h2 id="publish-title" className="w-full text-lg font-semibold">
        {t("menuBoard.publish.title")}
      </h2>
      <DateField
        label={t("menuBoard.publish.from")}
        value={form.data.from}
        onChange={(value) => form.setData("from", value)}
        error={form.errors.from}
      />
      <DateField
        label={t("menuBoard.publish.to")}
        value={form.data.to}
        min={form.data.from}
        onChange={(value) => form.setData("to", value)}
        error={form.errors.to}
      />
      <Button type="submit" disabled={form.processing}>
        {t("menuBoard.publish.submit")}
      </Button>
    </form>
  );
}

export default function MenuDisplay({ tabs, cafes, cafeId, board, links, can }: Props) {
  const { t } = useI18n();
  const route = useRoute();
  useSignedInBoardLive(cafeId);
  return (
    <div className="flex flex-col gap-6">
      <Head title={t("menuBoard.display.title")} />
      <PageHeader
        title={t("menuBoard.display.title")}
        description={t("menuBoard.display.description")}
        tabs={<MenuTabs tabs={tabs} current="display" cafeId={cafeId} />}
      />
      {cafes.length === 0 || cafeId === null ? (
        <p className="text-muted-foreground">{t("menuBoard.display.no_cafes")}</p>
      ) : (
        <>
          <div className="flex flex-wrap items-end gap-4">
            <SelectField
              label={t("menuBoard.display.cafe")}
              value={cafeId}
              searchable={cafes.length > 8}
              options={cafes.map((c) => ({ value: String(c.id), label: c.path }))}
              onValueChange={(value) => router.get(route("menu.display"), { cafe: value })}
              className="min-w-64"
            />
          </div>
          {can.publish && board && <PublishForm key={cafeId} cafeId={cafeId} today={board.today} />}
          {board && (
            <section aria-labelledby="board-preview" className="flex flex-col gap-2">
              <h2 id="board-preview" className="text-lg font-semibold">
                {t("menuBoard.display.preview")}
              </h2>
              {/* A 16:9 screen in small: the board sizes itself to this box as it does to the dining room's screen. */}
              <div className="aspect-video w-full overflow-hidden rounded-lg border border-border">
                <BoardView board={board} />
              </div>
            </section>
          )}
          {can.manageLinks && links && <BoardLinks cafeId={cafeId} links={links} />}
        </>
      )}
    </div>
  );
}
