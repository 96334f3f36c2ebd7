// A labelled form control with its error line; the ids tie label, control and error together
// for screen readers, and the enhancement script finds the error line by `data-error-for`.
import type { ReactNode } from "react";
import { useT } from "../../i18n/react.tsx";

interface FieldProps {
  id: string;
  name: string;
  label: string;
  error?: string;
  hint?: string;
  children: (aria: { id: string; name: string; "aria-invalid"?: true; "aria-describedby": string }) => ReactNode;
}

export function Field({ id, name, label, error, hint, children }: FieldProps) {
  const errorId = `${id}-error`;
  const describedBy = hint ? `${id}-hint ${errorId}` : errorId;
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      {children({ id, name, "aria-describedby": describedBy, ...(error ? { "aria-invalid": true as const } : {}) })}
      {hint ? (
        <p className="field-hint" id={`${id}-hint`}>
          {hint}
        </p>
      ) : null}
      <p className="field-error" id={errorId} data-error-for={name}>
        {error ?? ""}
      </p>
    </div>
  );
}

/** The button that submits a form; the script shows the spinner and the busy label while it works. */
export function SubmitButton({ label, busyLabel, disabled }: { label: string; busyLabel: string; disabled?: boolean }) {
  return (
    <button className="btn btn-primary btn-block" type="submit" data-submit="" data-busy-label={busyLabel} disabled={disabled}>
      <span className="spinner" aria-hidden="true" />
      <span data-label="">{label}</span>
    </button>
  );
}

export function FormMessage({ message }: { message: string | null }) {
  return (
    <p className="form-error" role="alert" data-form-error="">
      {message ?? ""}
    </p>
  );
}

export function AgreementNote() {
  const t = useT();
  return (
    <p className="agreement-note">
      {`${t("auth.agreement_before")} `}
      <a href="#agreement" data-open-agreement="">
        {t("auth.agreement_link")}
      </a>
      {` ${t("auth.agreement_after")}`}
    </p>
  );
}
