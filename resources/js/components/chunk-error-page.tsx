/** Shown when a page's code could not be downloaded (offline, or a new release replaced the files). */
import { Head, usePage } from "@inertiajs/react";
import { RefreshCw } from "lucide-react";
import { translate, isLocale } from "../../../src/i18n";
import { Button } from "./ui/button";

export default function ChunkErrorPage() {
  const page = usePage();
  const locale = isLocale(page.props.locale) ? page.props.locale : "es";
  return (
    <main
      role="alert"
      className="mx-auto flex min-h-screen max-w-lg flex-col items-center justify-center gap-4 p-6 text-center"
      data-testid="chunk-error"
    >
      <Head title={translate(locale, "errors.chunk_failed")} />
      <h1 className="text-2xl font-semibold">{translate(locale, "errors.chunk_failed")}</h1>
      <p className="text-muted-foreground">{translate(locale, "errors.chunk_failed_detail")}</p>
      <Button onClick={() => window.location.reload()}>
        <RefreshCw className="size-4" aria-hidden="true" />
        {translate(locale, "errors.reload")}
      </Button>
    </main>
  );
}
