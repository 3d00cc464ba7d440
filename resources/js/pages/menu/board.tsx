/**
 * The public menu board a display link opens (route `menu.board`): the cafe's published menu and nothing else — no
 * navigation, no account, no other data — in the cafe's board language, live. A revoked or unknown link shows only
 * that it is no longer valid.
 */
import { Head, usePage } from "@inertiajs/react";
import type { Board } from "../../../../src/shared/menu/types";
import { BoardView } from "../../components/menu/board-view";
import { usePublicBoardLive } from "../../components/menu/board-live";
import { useI18n } from "../../hooks/use-i18n";
import { useRoute } from "../../hooks/use-route";
import type { RealtimeSettings } from "../../lib/realtime";
import type { Translate } from "../../../../src/shared/i18n";

interface Props {
  board: Board | null;
}

function LiveStatus({ state, t }: { state: string; t: Translate }) {
  const live = state === "connected";
  return (
    <p role="status" data-state={state} className="flex items-center gap-[0.5em] text-[1.1em] font-semibold">
      <span
        aria-hidden
        className={live ? "size-[0.7em] rounded-full bg-success" : "size-[0.7em] rounded-full bg-destructive"}
      />
      {live ? t("menuBoard.board.live") : t("menuBoard.board.not_live")}
    </p>
  );
}

function BoardPage({ board }: Props) {
  const { t } = useI18n();
  const page = usePage<{ realtime: RealtimeSettings }>();
  const route = useRoute();
  const token = decodeURIComponent(page.url.split("?")[0].split("/").pop() ?? "");
  const state = usePublicBoardLive({
    cafeId: board?.cafe.id ?? null,
    token,
    settings: page.props.realtime,
    authUrl: route("menu.board.auth"),
    userAuthUrl: route("menu.board.user-auth"),
  });
  if (!board)
    return (
      <main className="grid min-h-screen place-items-center bg-background p-8 text-center text-foreground">
        <Head title={t("menuBoard.board.invalid_title")}>
          <meta name="robots" content="noindex, nofollow" />
        </Head>
        <div className="flex max-w-2xl flex-col gap-4">
          <h1 className="text-4xl font-bold">{t("menuBoard.board.invalid_title")}</h1>
          <p className="text-xl">{t("menuBoard.board.invalid_body")}</p>
        </div>
      </main>
    );
  return (
    // The screen and nothing more: the board fits it or pages by itself, it never scrolls.
    <main className="h-dvh w-full overflow-hidden bg-background text-foreground">
      <Head title={`${t("menuBoard.board.title")} · ${board.cafe.name}`}>
        <meta name="robots" content="noindex, nofollow" />
      </Head>
      <h1 className="sr-only">
        {t("menuBoard.board.title")} · {board.cafe.name}
      </h1>
      <BoardView board={board} status={<LiveStatus state={state} t={t} />} />
    </main>
  );
}

// The board stands alone: no app layout, no sidebar, no navigation.
BoardPage.layout = [] as never[];

export default BoardPage;
