// "I am 18 or older and I accept the Terms": the box that register and guest entry both require.
// It carries no native `required`, so with JavaScript off an unticked box reaches the server and
// comes back as the server's own message under it, like every other field's error; `aria-required`
// still tells screen readers it must be ticked.
import type { FormState } from "./form-state.ts";
import { useT } from "../../i18n/react.tsx";

/** Whether a no-JavaScript post had the box ticked (the browser sends "on"). */
const ticked = (values: FormState["values"] | undefined) => values?.adult === "on" || values?.adult === "true";

export function AdultBox({ id, state }: { id: string; state: FormState | null }) {
  const errorId = `${id}-error`;
  const error = state?.errors.adult;
  const t = useT();
  return (
    <div className="field check-field">
      <div className="check-row">
        <input
          type="checkbox"
          id={id}
          name="adult"
          aria-required="true"
          aria-describedby={errorId}
          {...(error ? { "aria-invalid": true as const } : {})}
          defaultChecked={ticked(state?.values)}
        />
        {/* The Terms open in a new tab, so reading them never loses what was typed (JavaScript off too). */}
        <label htmlFor={id}>
          {`${t("auth.adult_before")} `}
          <a href="/terms" target="_blank" rel="noopener">
            {t("auth.adult_terms")}
          </a>
        </label>
      </div>
      <p className="field-error" id={errorId} data-error-for="adult">
        {error ?? ""}
      </p>
    </div>
  );
}
