import { AgreementNote, Field, FormMessage, SubmitButton } from "./Field.tsx";
import { BanNotice } from "./BanNotice.tsx";
import type { FormState } from "./form-state.ts";
import { useT } from "../../i18n/react.tsx";

export function LoginForm({ state }: { state: FormState | null }) {
  const values = state?.values ?? {};
  const errors = state?.errors ?? {};
  const t = useT();
  return (
    <form method="post" action="/auth/login" className="auth-form" data-auth-form="login">
      <FormMessage message={state?.ban ? null : (state?.message ?? null)} />
      {state?.ban ? <BanNotice ban={state.ban} kind="account" /> : null}
      <Field id="login-username" name="username" label={t("auth.username")} error={errors.username}>
        {(aria) => <input {...aria} type="text" autoComplete="username" autoCapitalize="none" spellCheck={false} required maxLength={254} defaultValue={values.username} />}
      </Field>
      <Field id="login-password" name="password" label={t("auth.password")} error={errors.password}>
        {(aria) => <input {...aria} type="password" autoComplete="current-password" required maxLength={1024} />}
      </Field>
      <SubmitButton label={t("auth.login")} busyLabel={t("auth.logging_in")} />
      <AgreementNote />
    </form>
  );
}
