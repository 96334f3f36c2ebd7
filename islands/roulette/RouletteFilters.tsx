// The gender and country filters the landing page advertises (API.md: gender any/male/female,
// country any or a code), and (issue 24) the language the partner must speak, this session's
// interests and "only people who share my interests". A change applies to the search under way.
import { useId } from "react";
import type { Country } from "../lib/types.ts";
import { t } from "../i18n.ts";
import { languageOptions } from "../interests/languages.ts";
import TagInput from "../interests/TagInput.tsx";
import { ROULETTE_INTEREST_TEXTS as T } from "./interest-texts.ts";
import { countriesForList } from "../lib/format.ts";
import { flagOf, type RouletteFilters as Filters } from "./roulette-state.ts";

interface Props {
  filters: Filters;
  countries: readonly Country[];
  onChange: (filters: Filters) => void;
  /** Interest suggestions (GET /api/interests/suggestions); without it, no interests row. */
  suggest?: (prefix: string) => Promise<readonly string[]>;
  /** The languages I speak: offered first in the language filter. */
  spoken?: readonly string[];
}

const GENDERS: readonly Filters["gender"][] = ["any", "female", "male"];

const isGender = (value: string): value is Filters["gender"] => GENDERS.some((g) => g === value);

export default function RouletteFilters({ filters, countries, onChange, suggest, spoken = [] }: Props) {
  const id = useId();
  const interests = filters.interests ?? [];
  const languages = languageOptions();
  const mine = languages.filter((l) => spoken.includes(l.code));
  return (
    <div className="roulette-filter-area">
      <div className="roulette-filters" role="group" aria-label={t("roulette.partner_filters")}>
        <label className="roulette-filter">
          <span>{t("roulette.gender")}</span>
          <select
            value={filters.gender}
            onChange={(e) => isGender(e.target.value) && onChange({ ...filters, gender: e.target.value })}
          >
            {GENDERS.map((g) => (
              <option key={g} value={g}>
                {t(`roulette.gender_${g}`)}
              </option>
            ))}
          </select>
        </label>
        <label className="roulette-filter">
          <span>{t("roulette.country")}</span>
          <select value={filters.country} onChange={(e) => onChange({ ...filters, country: e.target.value })}>
            <option value="any">{t("roulette.any_country")}</option>
            {countriesForList(countries).map((c) => (
              <option key={c.code} value={c.code}>
                {`${flagOf(c.code)} ${c.label}`}
              </option>
            ))}
          </select>
        </label>
        <label className="roulette-filter">
          <span>{T.language}</span>
          <select value={filters.language ?? "any"} onChange={(e) => onChange({ ...filters, language: e.target.value })}>
            <option value="any">{T.anyLanguage}</option>
            {mine.map((l) => (
              <option key={`mine-${l.code}`} value={l.code}>
                {l.label}
              </option>
            ))}
            {languages
              .filter((l) => !spoken.includes(l.code))
              .map((l) => (
                <option key={l.code} value={l.code}>
                  {l.label}
                </option>
              ))}
          </select>
        </label>
      </div>
      {suggest && (
        <div className="roulette-interests" role="group" aria-label={T.interests}>
          <TagInput
            label={T.interests}
            hint={T.interestsHint}
            value={interests}
            suggest={suggest}
            onChange={(tags) => onChange({ ...filters, interests: tags, interestsOnly: tags.length > 0 && filters.interestsOnly === true })}
          />
          <label className="roulette-only" htmlFor={`${id}-only`}>
            <input
              id={`${id}-only`}
              type="checkbox"
              checked={filters.interestsOnly === true && interests.length > 0}
              disabled={interests.length === 0}
              onChange={(e) => onChange({ ...filters, interestsOnly: e.target.checked })}
            />
            <span>{T.interestsOnly}</span>
          </label>
        </div>
      )}
    </div>
  );
}
