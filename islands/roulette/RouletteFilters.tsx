// The gender and country filters the landing page advertises (API.md: gender any/male/female,
// country any or a code). A change applies to the search under way.
import type { Country } from "../lib/types.ts";
import { flagOf, type RouletteFilters as Filters } from "./roulette-state.ts";

interface Props {
  filters: Filters;
  countries: readonly Country[];
  onChange: (filters: Filters) => void;
}

const GENDERS: { value: Filters["gender"]; label: string }[] = [
  { value: "any", label: "Anyone" },
  { value: "female", label: "Women" },
  { value: "male", label: "Men" },
];

const isGender = (value: string): value is Filters["gender"] => GENDERS.some((g) => g.value === value);

export default function RouletteFilters({ filters, countries, onChange }: Props) {
  return (
    <div className="roulette-filters" role="group" aria-label="Partner filters">
      <label className="roulette-filter">
        <span>Gender</span>
        <select
          value={filters.gender}
          onChange={(e) => isGender(e.target.value) && onChange({ ...filters, gender: e.target.value })}
        >
          {GENDERS.map((g) => (
            <option key={g.value} value={g.value}>
              {g.label}
            </option>
          ))}
        </select>
      </label>
      <label className="roulette-filter">
        <span>Country</span>
        <select value={filters.country} onChange={(e) => onChange({ ...filters, country: e.target.value })}>
          <option value="any">Any country</option>
          {countries.map((c) => (
            <option key={c.code} value={c.code}>
              {`${flagOf(c.code)} ${c.name}`}
            </option>
          ))}
        </select>
      </label>
    </div>
  );
}
