/** The RUC field of a business or a provider: required, typed as numbers, in a monospace font, its length in the hint. */
import type { ComponentProps } from "react";
import { Field } from "./ui/field";

export function RucField({
  rucLength,
  ...props
}: Omit<ComponentProps<typeof Field>, "required" | "inputMode" | "maxLength" | "inputClassName"> & {
  rucLength: number;
}) {
  return <Field required inputMode="numeric" maxLength={rucLength} inputClassName="font-mono" {...props} />;
}
