import { AdultBox } from "./AdultBox.tsx";
import { BanNotice } from "./BanNotice.tsx";
import { AgreementNote, FormMessage, SubmitButton } from "./Field.tsx";
import type { FormState } from "./form-state.ts";

const choices = [
  { value: "male", label: "Male", symbol: "\u2642" },
  { value: "female", label: "Female", symbol: "\u2640" },
];

export function GuestForm({ state }: { state: FormState | null }) {
  const picked = state?.values.gender;
  const error = state?.errors.gender;
  return (
    <form method="post" action="/auth/guest" className="auth-form" data-auth-form="guest">
      <FormMessage message={state?.ban ? null : (state?.message ?? null)} />
      {state?.ban ? <BanNotice ban={state.ban} kind="entry" /> : null}
      <p className="guest-intro">No e-mail, no password: pick your gender and we make up a guest name for you.</p>
      <fieldset className="gender-choice" aria-describedby="guest-gender-error">
        <legend>I am</legend>
        {choices.map((c) => (
          <label key={c.value} className="gender-option">
            <input type="radio" name="gender" value={c.value} required defaultChecked={picked === c.value} />
            <span className="gender-card">
              <span className="gender-symbol" aria-hidden="true">
                {c.symbol}
              </span>
              {c.label}
            </span>
          </label>
        ))}
      </fieldset>
      <p className="field-error" id="guest-gender-error" data-error-for="gender">
        {error ?? ""}
      </p>
      <AdultBox id="guest-adult" state={state} />
      <SubmitButton label="Enter Chat" busyLabel="Creating Account..." />
      <AgreementNote />
    </form>
  );
}
