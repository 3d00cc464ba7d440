/**
 * A property's printable label: a large QR code that opens the property's page, its code, name, location and
 * business. Printing shows the label alone (everything else on the page is hidden by the print style).
 */
import { Head, Link } from "@inertiajs/react";
import { ArrowLeft, Printer } from "lucide-react";
import type { PropertyRow } from "../../components/businesses/types";
import { Button } from "../../components/ui/button";
import { useI18n } from "../../hooks/use-i18n";
import { useRoute } from "../../hooks/use-route";
import { PageHeader } from "../../components/ui/page-header";

interface Props {
  property: PropertyRow;
  /** The absolute address of the property's page, which the QR code encodes. */
  url: string;
  /** The QR code as SVG markup, generated on the server. */
  qr: string;
}

// Printing keeps only the label, whatever frame the page sits in.
const PRINT_STYLE = `@media print {
  html, body { background: #fff !important; }
  body * { visibility: hidden !important; }
  #property-label, #property-label * { visibility: visible !important; }
  #property-label { position: fixed; left: 0; top: 0; margin: 0; border: 1px solid #000; color: #000; background: #fff; }
}`;

export default function PropertyLabel({ property, url, qr }: Props) {
  const { t } = useI18n();
  const route = useRoute();
  return (
    <div className="space-y-6">
      <Head title={t("properties.label_of", { code: property.code })} />
      <style>{PRINT_STYLE}</style>
      <PageHeader
        className="print:hidden"
        eyebrow={
          <Link
            href={route("properties.show", { property: property.id })}
            className="mb-2 inline-flex items-center gap-1 text-sm text-muted-foreground hover:text-foreground"
          >
            <ArrowLeft className="size-4" aria-hidden="true" />
            {t("properties.back_to_property")}
          </Link>
        }
        title={t("properties.label_of", { code: property.code })}
        description={property.name}
        actions={
          <Button onClick={() => window.print()}>
            <Printer className="size-4" aria-hidden="true" />
            {t("properties.print")}
          </Button>
        }
      />
      <article
        id="property-label"
        aria-label={t("properties.label_of", { code: property.code })}
        className="mx-auto w-[22rem] rounded-xl border bg-white p-5 text-center text-black"
      >
        <div
          role="img"
          aria-label={t("properties.qr_alt", { url })}
          className="mx-auto w-64 [&>svg]:h-auto [&>svg]:w-full"
          dangerouslySetInnerHTML={{ __html: qr }}
        />
        <p className="mt-3 font-mono text-2xl font-bold tracking-wide">{property.code}</p>
        <p className="text-lg font-semibold">{property.name}</p>
        <p className="text-sm">
          {property.location.name} · {property.location.detail}
        </p>
        {/* A headquarters' detail already names its business. */}
        {property.businessName && property.businessName !== property.location.detail && (
          <p className="mt-1 text-sm font-medium">{property.businessName}</p>
        )}
        <p className="mt-2 text-xs text-neutral-600">{t("properties.scan_hint")}</p>
      </article>
    </div>
  );
}
