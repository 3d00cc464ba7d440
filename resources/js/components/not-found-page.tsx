/** Shown when the server names a page component this build does not have. */
import { Head, Link, usePage } from "@inertiajs/react";
import { translate, isLocale } from "../../../src/shared/i18n";
import { PageRoot } from "../layouts/main-landmark";

export default function NotFoundPage() {
  const page = usePage();
  const locale = isLocale(page.props.locale) ? page.props.locale : "es";
  return (
    <PageRoot className="mx-auto flex min-h-[50vh] max-w-lg flex-col items-center justify-center gap-4 p-6 text-center">
      <Head title="Page not found" />
      <h1 className="text-2xl font-semibold">Page not found</h1>
      <p className="text-muted-foreground">
        {translate(locale, "errors.page_not_found_detail", { component: page.component })}
      </p>
      <Link href="/" className="text-primary underline underline-offset-4">
        {translate(locale, "errors.go_home")}
      </Link>
    </PageRoot>
  );
}
