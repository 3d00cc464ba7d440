/** A new password and its confirmation, with the policy as a hint (registration, reset, settings). */
import { useI18n } from "../hooks/use-i18n";
import { Field } from "./ui/field";

interface PasswordForm {
  data: { password: string; password_confirmation: string };
  errors: Partial<Record<"password" | "password_confirmation", string>>;
  setData: (key: "password" | "password_confirmation", value: string) => void;
}

export function NewPasswordFields({
  form,
  minLength,
  labels,
  autoFocus = false,
}: {
  form: PasswordForm;
  minLength: number;
  labels: { password: string; confirmation: string };
  autoFocus?: boolean;
}) {
  const { t } = useI18n();
  return (
    <>
      <Field
        label={labels.password}
        type="password"
        name="password"
        autoComplete="new-password"
        autoFocus={autoFocus}
        required
        value={form.data.password}
        onChange={(e) => form.setData("password", e.target.value)}
        error={form.errors.password}
        hint={t("auth.register.password_hint", { min: minLength })}
      />
      <Field
        label={labels.confirmation}
        type="password"
        name="password_confirmation"
        autoComplete="new-password"
        required
        value={form.data.password_confirmation}
        onChange={(e) => form.setData("password_confirmation", e.target.value)}
        error={form.errors.password_confirmation}
      />
    </>
  );
}
