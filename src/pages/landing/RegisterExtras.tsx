// The register form's optional interests and spoken languages (issue 24), folded into a
// disclosure so the required fields stay first. Plain controls, so they work without JavaScript:
// interests typed as "music, travel" and the languages a multiple select named in the page's
// language (the same list as Settings; the landing page carries no React to run its tag inputs).
import { MAX_LANGUAGES } from "../../users/values.ts";
import { languageOptions } from "../../../islands/interests/languages.ts";
import { withStrings } from "../../../islands/i18n.ts";
import { useLocale, useT } from "../../i18n/react.tsx";
import { Field } from "./Field.tsx";

export function RegisterExtras({ values, errors }: { values: Record<string, string>; errors: Record<string, string> }) {
  const t = useT();
  const locale = useLocale();
  const options = withStrings(locale, {}, () => languageOptions());
  const chosen = new Set((values.languages ?? "").split(",").filter(Boolean));
  const open = Boolean(values.interests || chosen.size > 0 || errors.interests || errors.languages);
  return (
    <details className="register-more" open={open}>
      <summary>{t("chat.register_more")}</summary>
      <Field id="reg-interests" name="interests" label={t("chat.interests")} hint={t("chat.register_interests_hint")} error={errors.interests}>
        {(aria) => <input {...aria} type="text" autoComplete="off" maxLength={300} defaultValue={values.interests} />}
      </Field>
      <Field id="reg-languages" name="languages" label={t("chat.languages_mine")} hint={t("chat.register_languages_hint", { count: MAX_LANGUAGES })} error={errors.languages}>
        {(aria) => (
          <select {...aria} multiple size={6} defaultValue={[...chosen]}>
            {options.map((o) => (
              <option key={o.code} value={o.code}>
                {o.label}
              </option>
            ))}
          </select>
        )}
      </Field>
    </details>
  );
}
