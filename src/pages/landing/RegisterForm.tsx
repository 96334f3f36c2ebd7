import { genders } from "../../users/model.ts";
import { BanNotice } from "./BanNotice.tsx";
import { AdultBox } from "./AdultBox.tsx";
import { CountrySelect } from "./CountrySelect.tsx";
import { RegisterExtras } from "./RegisterExtras.tsx";
import { AgreementNote, Field, FormMessage, SubmitButton } from "./Field.tsx";
import type { FormState } from "./form-state.ts";
import type { T } from "../../i18n/catalogue.ts";
import { useT } from "../../i18n/react.tsx";

export const genderLabel = (t: T, gender: (typeof genders)[number]): string => t(`common.gender_${gender}`);

const ages = Array.from({ length: 82 }, (_, i) => 18 + i);

export function RegisterForm({ state }: { state: FormState | null }) {
  const values = state?.values ?? {};
  const errors = state?.errors ?? {};
  const t = useT();
  return (
    <form method="post" action="/auth/register" className="auth-form" data-auth-form="register">
      <FormMessage message={state?.ban ? null : (state?.message ?? null)} />
      {state?.ban ? <BanNotice ban={state.ban} kind="entry" /> : null}
      <div className="field-row">
        <Field id="reg-username" name="username" label={t("auth.username")} error={errors.username}>
          {(aria) => (
            <input {...aria} type="text" autoComplete="username" autoCapitalize="none" spellCheck={false} required minLength={3} maxLength={24} pattern="[A-Za-z0-9_]{3,24}" title={t("auth.username_title")} defaultValue={values.username} />
          )}
        </Field>
        <Field id="reg-name" name="name" label={t("auth.display_name")} error={errors.name}>
          {(aria) => <input {...aria} type="text" autoComplete="nickname" required maxLength={50} defaultValue={values.name} />}
        </Field>
      </div>
      <Field id="reg-email" name="email" label={t("auth.email")} error={errors.email}>
        {(aria) => <input {...aria} type="email" autoComplete="email" required maxLength={254} defaultValue={values.email} />}
      </Field>
      <div className="field-row">
        <Field id="reg-password" name="password" label={t("auth.password")} error={errors.password}>
          {(aria) => <input {...aria} type="password" autoComplete="new-password" required minLength={8} maxLength={128} />}
        </Field>
        <Field id="reg-confirm" name="confirmPassword" label={t("auth.confirm_password")} error={errors.confirmPassword}>
          {(aria) => <input {...aria} type="password" autoComplete="new-password" required minLength={8} maxLength={128} />}
        </Field>
      </div>
      <div className="field-row">
        <Field id="reg-gender" name="gender" label={t("auth.gender")} error={errors.gender}>
          {(aria) => (
            <select {...aria} required defaultValue={values.gender ?? ""}>
              <option value="">{t("auth.select_gender")}</option>
              {genders.map((g) => (
                <option key={g} value={g}>
                  {genderLabel(t, g)}
                </option>
              ))}
            </select>
          )}
        </Field>
        <Field id="reg-age" name="age" label={t("auth.age")} error={errors.age}>
          {(aria) => (
            <select {...aria} required defaultValue={values.age ?? ""}>
              <option value="">{t("auth.select_age")}</option>
              {ages.map((a) => (
                <option key={a} value={a}>
                  {a}
                </option>
              ))}
            </select>
          )}
        </Field>
      </div>
      <Field id="reg-country" name="country_code" label={t("auth.country")} error={errors.country_code}>
        {(aria) => <CountrySelect aria={aria} value={values.country_code} />}
      </Field>
      <RegisterExtras values={values} errors={errors} />
      <AdultBox id="reg-adult" state={state} />
      <SubmitButton label={t("auth.sign_up")} busyLabel={t("auth.creating")} />
      <AgreementNote />
    </form>
  );
}
