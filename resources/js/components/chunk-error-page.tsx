/** Shown when a page's code could not be downloaded (offline, or a new release replaced the files). */
import { Head, usePage } from "@inertiajs/react";
import { RefreshCw } from "lucide-react";
import { translate, isLocale } from "../../../src/shared/i18n";
import { PageRoot } from "../layouts/main-landmark";
import { Button } from "./ui/button";

export default function ChunkErrorPage() {
  const page = usePage();
  const locale = isLocale(page.props.locale) ? page.props.locale : "es";
  return (
    <PageRoot className="mx-auto flex min-h-[50vh] max-w-lg flex-col items-center justify-center p-6 text-center">
      <Head title={translate(locale, "errors.chunk_failed")} />
      {/* Announced as it appears: the screen the person asked for did not come. */}
      <div role="alert" className="flex flex-col items-center gap-4" data-testid="chunk-error">
        <h1 className="text-2xl font-semibold">{translate(locale, "errors.chunk_failed")}</h1>
        <p className="text-muted-foreground">{translate(locale, "errors.chunk_failed_detail")}</p>
        <Button onClick={() => window.location.reload()}>
          <RefreshCw className="size-4" aria-hidden="true" />
          {translate(locale, "errors.reload")}
        </Button>
      </div>
    </PageRoot>
  );
}
