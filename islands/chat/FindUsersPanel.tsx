// The 'Find Users' filter panel: name, gender, orientation, country, age range, online only.
import { useId } from "react";
import { AGES, GENDERS, optionLabel, ORIENTATIONS } from "../lib/format.ts";
import type { UserFilters } from "../lib/lists.ts";

interface Props {
  filters: UserFilters;
  countries: string[];
  onChange: (filters: UserFilters) => void;
}

export default function FindUsersPanel({ filters, countries, onChange }: Props) {
  const id = useId();
  const set = <K extends keyof UserFilters>(key: K, value: UserFilters[K]) => onChange({ ...filters, [key]: value });
  return (
    <form className="find-users" role="search" aria-label="Find Users" onSubmit={(e) => e.preventDefault()}>
      <h2 className="panel-title">Find Users</h2>
      <label className="field" htmlFor={`${id}-name`}>
        <span>Name</span>
        <input id={`${id}-name`} type="search" value={filters.name} placeholder="Search by name..." autoFocus onChange={(e) => set("name", e.target.value)} />
      </label>
      <div className="field-row">
        <label className="field" htmlFor={`${id}-gender`}>
          <span>Gender</span>
          <select id={`${id}-gender`} value={filters.gender} onChange={(e) => set("gender", e.target.value)}>
            <option value="">Any</option>
            {GENDERS.map((g) => (
              <option key={g} value={g}>{optionLabel(g)}</option>
            ))}
          </select>
        </label>
        <label className="field" htmlFor={`${id}-orientation`}>
          <span>Orientation</span>
          <select id={`${id}-orientation`} value={filters.orientation} onChange={(e) => set("orientation", e.target.value)}>
            <option value="">Any</option>
            {ORIENTATIONS.map((o) => (
              <option key={o} value={o}>{optionLabel(o)}</option>
            ))}
          </select>
        </label>
      </div>
      <label className="field" htmlFor={`${id}-country`}>
        <span>Country</span>
        <select id={`${id}-country`} value={filters.country} onChange={(e) => set("country", e.target.value)}>
          <option value="">Any</option>
          {countries.map((c) => (
            <option key={c} value={c}>{c}</option>
          ))}
        </select>
      </label>
      <div className="field-row">
        <label className="field" htmlFor={`${id}-min`}>
          <span>Min age</span>
          <select id={`${id}-min`} value={filters.minAge} onChange={(e) => set("minAge", e.target.value)}>
            <option value="">Any</option>
            {AGES.map((a) => (
              <option key={a} value={a}>{a}</option>
            ))}
          </select>
        </label>
        <label className="field" htmlFor={`${id}-max`}>
          <span>Max age</span>
          <select id={`${id}-max`} value={filters.maxAge} onChange={(e) => set("maxAge", e.target.value)}>
            <option value="">Any</option>
            {AGES.map((a) => (
              <option key={a} value={a}>{a}</option>
            ))}
          </select>
        </label>
      </div>
      <label className="check">
        <input type="checkbox" checked={filters.onlineOnly} onChange={(e) => set("onlineOnly", e.target.checked)} />
        <span>Online only</span>
      </label>
    </form>
  );
}
