// The display-name input of Edit Profile and the name modal, with the server's own message shown
// as the person types (src/users/names/rules.ts runs here too, without the skeleton data).
import { displayNameProblem, normaliseName } from "../../src/users/names/rules.ts";
import { t } from "../i18n.ts";

/** The message for a name the server would refuse; null for an empty one (the forms handle that). */
export function nameProblem(name: string): string | null {
  return name.trim() === "" ? null : displayNameProblem(normaliseName(name));
}

export default function NameField({ id, value, onChange }: { id: string; value: string; onChange: (value: string) => void }) {
  const problem = nameProblem(value);
  // The message sits outside the label, so it is the field's description, not part of its name.
  return (
    <>
      <label className="field" htmlFor={id}>
        <span>{t("chat.field_display_name")}</span>
        <input
          id={id}
          value={value}
          maxLength={50}
          onChange={(e) => onChange(e.target.value)}
          aria-describedby={`${id}-error`}
          {...(problem ? { "aria-invalid": true as const } : {})}
        />
      </label>
      <p className="field-error" id={`${id}-error`} aria-live="polite">{problem ?? ""}</p>
    </>
  );
}
