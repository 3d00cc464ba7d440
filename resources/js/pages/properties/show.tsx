/**
 * A property's page (what its QR label opens): every field, where it is kept, a link to print its label and, for
 * those who may, the edit dialog (saving comes back here).
 */
import { Head, Link } from "@inertiajs/react";
import { ArrowLeft, Pencil, QrCode } from "lucide-react";
import { useState, type ReactNode } from "react";
import { PropertyDialog } from "../../components/businesses/property-dialog";
import { PropertyStatusBadge } from "../../components/businesses/property-status";
import type { LocationOptions, PropertyRow, PropertyStatus } from "../../components/businesses/types";
import { Button, buttonClasses } from "../../components/ui/button";
import { useI18n } from "../../hooks/use-i18n";
import { useRoute } from "../../hooks/use-route";
import { PageHeader } from "../../components/ui/page-header";

interface Props {
  property: PropertyRow;
  /** What the edit dialog needs; null without properties.manage. */
  editor: { statuses: PropertyStatus[]; locations: LocationOptions; categories: string[]; today: string } | null;
}

/** One term and its value in the details list (a plain render function, not a component). */
const entry = (term: string, value: ReactNode) => (
  <div key={term} className="grid gap-1 py-2 sm:grid-cols-[14rem_1fr]">
    <dt className="text-sm text-muted-foreground">{term}</dt>
    <dd className="text-sm">{value}</dd>
  </div>
);

export default function PropertyShow({ property, editor }: Props) {
  const { t, money, date, dateTime } = useI18n();
  const route = useRoute();
  const [editing, setEditing] = useState(false);
  const none = t("properties.not_set");
  const locationKind = t(
    property.location.kind === "headquarters"
      ? "properties.location_kind_headquarters"
      : "properties.location_kind_cafe",
  );

  return (
    <div className="space-y-6">
      <Head title={`${property.code} · ${property.name}`} />
      <PageHeader
        eyebrow={
          <>
            <Link
              href={route("properties.index")}
              className="mb-2 inline-flex items-center gap-1 text-sm text-muted-foreground hover:text-foreground"
            >
              <ArrowLeft className="size-4" aria-hidden="true" />
              {t("properties.back_to_list")}
            </Link>
            <p className="font-mono text-sm text-muted-foreground">{property.code}</p>
          </>
        }
        title={property.name}
        actions={
          <>
            {editor && (
              <Button variant="outline" onClick={() => setEditing(true)}>
                <Pencil className="size-4" aria-hidden="true" />
                {t("properties.edit")}
              </Button>
            )}
            <Link href={route("properties.label", { property: property.id })} className={buttonClasses("primary")}>
              <QrCode className="size-4" aria-hidden="true" />
              {t("properties.print_label")}
            </Link>
          </>
        }
      />
      <section aria-labelledby="property-details" className="rounded-xl border bg-card px-4 py-2">
        <h2 id="property-details" className="sr-only">
          {t("properties.details")}
        </h2>
        <dl className="divide-y">
          {entry(t("properties.code"), <span className="font-mono">{property.code}</span>)}
          {entry(t("properties.name"), property.name)}
          {entry(t("properties.category"), property.category)}
          {entry(t("properties.serial"), property.serial ? <span className="font-mono">{property.serial}</span> : none)}
          {entry(t("properties.status"), <PropertyStatusBadge status={property.status} />)}
          {entry(
            t("properties.location"),
            <span>
              <span className="text-xs uppercase text-muted-foreground">{locationKind}</span> {property.location.name}
              <span className="text-muted-foreground"> · {property.location.detail}</span>
            </span>,
          )}
          {entry(t("properties.business"), property.businessName || none)}
          {entry(t("properties.acquired_on"), property.acquiredOn ? date(`${property.acquiredOn}T12:00:00Z`) : none)}
          {entry(
            t("properties.acquisition_value"),
            property.acquisitionValueCents === null ? none : money(property.acquisitionValueCents),
          )}
          {entry(
            t("properties.notes"),
            property.notes ? <span className="whitespace-pre-line">{property.notes}</span> : none,
          )}
          {entry(t("properties.updated_at"), dateTime(property.updatedAt))}
        </dl>
      </section>
      {editing && editor && <PropertyDialog property={property} {...editor} onClose={() => setEditing(false)} />}
    </div>
  );
}
