/** Who is on duty at each cafe right now: one presence channel per cafe, updated live as people come and go. */
import { useEffect, useState } from "react";
import { Radio } from "lucide-react";
import { useI18n } from "../hooks/use-i18n";
import { useRealtime } from "../hooks/use-realtime";

interface Member {
  id: number;
  name: string;
}

export function OnDuty({ cafes }: { cafes: { id: number; name: string; unit: string }[] }) {
  const { t } = useI18n();
  const realtime = useRealtime();
  const [members, setMembers] = useState<Record<number, Member[]>>({});

  useEffect(() => {
    const echo = realtime();
    const set = (cafeId: number, update: (list: Member[]) => Member[]) =>
      setMembers((current) => ({ ...current, [cafeId]: update(current[cafeId] ?? []) }));
    for (const cafe of cafes) {
      echo
        .join(`cafe.${cafe.id}`)
        .here((list: Member[]) => set(cafe.id, () => list))
        .joining((member: Member) => set(cafe.id, (list) => [...list.filter((m) => m.id !== member.id), member]))
        .leaving((member: Member) => set(cafe.id, (list) => list.filter((m) => m.id !== member.id)))
        .error((error: unknown) => console.error(`Realtime: could not join cafe.${cafe.id}`, error));
    }
    return () => {
      for (const cafe of cafes) echo.leave(`cafe.${cafe.id}`);
    };
  }, [cafes.map((c) => c.id).join(",")]);

  if (cafes.length === 0) return null;
  return (
    <section
      className="max-w-xl rounded-xl border bg-card p-4 text-card-foreground"
      aria-labelledby="on-duty-title"
      data-testid="on-duty"
    >
      <h2 id="on-duty-title" className="flex items-center gap-2 font-medium">
        <Radio className="size-4 text-primary" aria-hidden="true" />
        {t("dashboard.on_duty")}
      </h2>
      <p className="mb-3 text-xs text-muted-foreground">{t("dashboard.on_duty_hint")}</p>
      <ul className="space-y-2 text-sm" aria-live="polite">
        {cafes.map((cafe) => (
          <li key={cafe.id} data-testid={`on-duty-${cafe.id}`}>
            <span className="font-medium">{cafe.name}</span>{" "}
            <span className="text-muted-foreground">· {cafe.unit}</span>
            <div className="text-muted-foreground">
              {(members[cafe.id] ?? []).map((m) => m.name).join(", ") || t("dashboard.on_duty_none")}
            </div>
          </li>
        ))}
      </ul>
    </section>
  );
}
