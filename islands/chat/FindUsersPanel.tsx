// The 'Find Users' filter panel: name, gender, orientation, country, age range, online only.
import { useId, type ReactNode } from "react";
import { AGES, countriesForList, GENDERS, optionLabel, ORIENTATIONS } from "../lib/format.ts";
import type { Country } from "../lib/types.ts";
import type { UserFilters } from "../lib/lists.ts";
import { t } from "../i18n.ts";

interface Props {
  filters: UserFilters;
  /** The filter matches the English name the server keeps; the list shows the page's language. */
  countries: Country[];
  onChange: (filters: UserFilters) => void;
}

/** The label is the text alone: a label around a select would be named by all its options too. */
function Field({ id, label, children }: { id: string; label: string; children: ReactNode }) {
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      {children}
    </div>
  );
}

export default function FindUsersPanel({ filters, countries, onChange }: Props) {
  const id = useId();
  const set = <K extends keyof UserFilters>(key: K, value: UserFilters[K]) => onChange({ ...filters, [key]: value });
  return (
    <form className="find-users" role="search" aria-label={t("chat.find_users")} onSubmit={(e) => e.preventDefault()}>
      <h2 className="panel-title">{t("chat.find_users")}</h2>
      <Field id={`${id}-name`} label={t("chat.field_name")}>
        <input id={`${id}-name`} type="search" value={filters.name} placeholder={t("chat.search_by_name")} maxLength={100} autoFocus onChange={(e) => set("name", e.target.value)} />
      </Field>
      <div className="field-row">
        <Field id={`${id}-gender`} label={t("chat.field_gender")}>
          <select id={`${id}-gender`} value={filters.gender} onChange={(e) => set("gender", e.target.value)}>
            <option value="">{t("chat.any")}</option>
            {GENDERS.map((g) => (
              <option key={g} value={g}>{optionLabel(g)}</option>
            ))}
          </select>
        </Field>
        <Field id={`${id}-orientation`} label={t("chat.field_orientation")}>
          <select id={`${id}-orientation`} value={filters.orientation} onChange={(e) => set("orientation", e.target.value)}>
            <option value="">{t("chat.any")}</option>
            {ORIENTATIONS.map((o) => (
              <option key={o} value={o}>{optionLabel(o)}</option>
            ))}
          </select>
        </Field>
      </div>
      <Field id={`${id}-country`} label={t("chat.field_country")}>
        <select id={`${id}-country`} value={filters.country} onChange={(e) => set("country", e.target.value)}>
          <option value="">{t("chat.any")}</option>
          {countriesForList(countries).map((c) => (
            <option key={c.code} value={c.name}>
              {c.label}
            </option>
          ))}
        </select>
      </Field>
      <div className="field-row">
        <Field id={`${id}-min`} label={t("chat.min_age")}>
          <select id={`${id}-min`} value={filters.minAge} onChange={(e) => set("minAge", e.target.value)}>
            <option value="">{t("chat.any")}</option>
            {AGES.map((a) => (
              <option key={a} value={a}>{a}</option>
            ))}
          </select>
        </Field>
        <Field id={`${id}-max`} label={t("chat.max_age")}>
          <select id={`${id}-max`} value={filters.maxAge} onChange={(e) => set("maxAge", e.target.value)}>
            <option value="">{t("chat.any")}</option>
            {AGES.map((a) => (
              <option key={a} value={a}>{a}</option>
            ))}
          </select>
        </Field>
      </div>
      <label className="check">
        <input type="checkbox" checked={filters.onlineOnly} onChange={(e) => set("onlineOnly", e.target.checked)} />
        <span>{t("chat.online_only")}</span>
      </label>
    </form>
  );
}
