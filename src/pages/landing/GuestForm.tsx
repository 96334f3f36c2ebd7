import { AdultBox } from "./AdultBox.tsx";
import { BanNotice } from "./BanNotice.tsx";
import { AgreementNote, FormMessage, SubmitButton } from "./Field.tsx";
import type { FormState } from "./form-state.ts";
import { useT } from "../../i18n/react.tsx";

const choices = [
  { value: "male", label: "common.gender_male", symbol: "\u2642" },
  { value: "female", label: "common.gender_female", symbol: "\u2640" },
] as const;

export function GuestForm({ state }: { state: FormState | null }) {
  const picked = state?.values.gender;
  const error = state?.errors.gender;
  const t = useT();
  return (
    <form method="post" action="/auth/guest" className="auth-form" data-auth-form="guest">
      <FormMessage message={state?.ban ? null : (state?.message ?? null)} />
      {state?.ban ? <BanNotice ban={state.ban} kind="entry" /> : null}
      <p className="guest-intro">{t("auth.guest_intro")}</p>
      <fieldset className="gender-choice" aria-describedby="guest-gender-error">
        <legend>{t("auth.i_am")}</legend>
        {choices.map((c) => (
          <label key={c.value} className="gender-option">
            <input type="radio" name="gender" value={c.value} required defaultChecked={picked === c.value} />
            <span className="gender-card">
              <span className="gender-symbol" aria-hidden="true">
                {c.symbol}
              </span>
              {t(c.label)}
            </span>
          </label>
        ))}
      </fieldset>
      <p className="field-error" id="guest-gender-error" data-error-for="gender">
        {error ?? ""}
      </p>
      <AdultBox id="guest-adult" state={state} />
      <SubmitButton label={t("auth.enter_chat")} busyLabel={t("auth.creating")} />
      <AgreementNote />
    </form>
  );
}
