/** Errors that belong to no visible field (a conflict with the current state, say), shown as one alert. */
export function OtherErrors({ errors, fields }: { errors: Record<string, string | undefined>; fields: string[] }) {
  const rest = Object.entries(errors).filter(
    ([key, value]) => value && typeof value === "string" && !fields.includes(key),
  );
  if (rest.length === 0) return null;
  return (
    <div
      role="alert"
      className="rounded-md border border-destructive/40 bg-destructive/10 px-3 py-2 text-sm text-destructive"
      data-testid="form-errors"
    >
      {rest.map(([key, value]) => (
        <p key={key}>{value}</p>
      ))}
    </div>
  );
}
