// Every country as a plain <select>: works with JavaScript off, and the enhancement script builds
// the searchable picker with flags from these same options, so the list is sent once.
import { countries } from "../../geo/countries.ts";
import { useLocale, useT } from "../../i18n/react.tsx";
import { intlTag } from "../../i18n/locales.ts";

type Aria = { id: string; name: string; "aria-invalid"?: true; "aria-describedby": string };

export function CountrySelect({ aria, value }: { aria: Aria; value?: string }) {
  const t = useT();
  const locale = useLocale();
  // Country names in the visitor's language from the browser-independent Intl data; English keeps the list's own names.
  const names = locale === "en" ? null : new Intl.DisplayNames([intlTag(locale)], { type: "region", fallback: "none" });
  return (
    <select {...aria} required defaultValue={value ?? ""} data-country-select="">
      <option value="">{t("auth.select_country")}</option>
      {countries.map((c) => (
        <option key={c.code} value={c.code}>
          {names?.of(c.code) ?? c.name}
        </option>
      ))}
    </select>
  );
}
