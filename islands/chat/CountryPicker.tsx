// A searchable country dropdown with flags (GET /api/geo/countries, loaded on first open).
import { useEffect, useId, useMemo, useRef, useState } from "react";
import { countryLabel, flagEmoji } from "../lib/format.ts";
import type { DetectedCountry } from "../lib/country-detect.ts";
import type { Country } from "../lib/types.ts";
import { useChat } from "./context.ts";
import { searchCountries } from "../lib/country-search.ts";
import { localeTag, t } from "../i18n.ts";

interface Props {
  value: Country | null;
  onChange: (country: Country | null) => void;
  labelledBy: string;
  /** Offered first while nothing is chosen and nothing is searched (the detected country, else the fallback). */
  suggested?: DetectedCountry | null;
}

export default function CountryPicker({ value, onChange, labelledBy, suggested = null }: Props) {
  const controller = useChat();
  const [open, setOpen] = useState(false);
  const [query, setQuery] = useState("");
  const [countries, setCountries] = useState<Country[] | null>(null);
  const root = useRef<HTMLDivElement>(null);
  const listId = useId();

  useEffect(() => {
    if (!open || countries) return;
    controller.api
      .countries()
      .then(({ countries: list }) => setCountries(list))
      .catch((error: unknown) => {
        console.error("Failed to load countries", error);
        setCountries([]);
      });
  }, [open, countries, controller]);

  useEffect(() => {
    if (!open) return;
    const onPointer = (event: PointerEvent) => {
      if (event.target instanceof Node && !root.current?.contains(event.target)) setOpen(false);
    };
    document.addEventListener("pointerdown", onPointer);
    return () => document.removeEventListener("pointerdown", onPointer);
  }, [open]);

  // Named and searched in the page's language; the server keeps the English name for the code.
  const named = useMemo(() => {
    const list = (countries ?? []).map((c) => ({ ...c, name: countryLabel(c.code, c.name) }));
    return list.some((c, i) => c.name !== countries?.[i]?.name) ? list.sort((a, b) => a.name.localeCompare(b.name, localeTag())) : list;
  }, [countries]);
  const found = searchCountries(named, query);
  const offered = !value && !query.trim() && suggested ? found.find((c) => c.code === suggested.code) : undefined;
  const shown = offered ? [offered, ...found.filter((c) => c !== offered)] : found;
  const pick = (country: Country) => {
    onChange(country);
    setOpen(false);
    setQuery("");
  };

  return (
    <div
      className="country-picker"
      ref={root}
      onKeyDown={(e) => {
        if (e.key === "Escape" && open) {
          e.stopPropagation();
          setOpen(false);
        }
      }}
    >
      <button
        type="button"
        className="select-like"
        aria-haspopup="listbox"
        aria-expanded={open}
        aria-labelledby={labelledBy}
        aria-describedby={`${listId}-value`}
        onClick={() => setOpen((o) => !o)}
      >
        <span id={`${listId}-value`}>{value ? `${flagEmoji(value.code)} ${countryLabel(value.code, value.name)}` : t("chat.select_country")}</span>
      </button>
      {open && (
        <div className="country-popover">
          <input
            type="search"
            placeholder={t("chat.search_countries_placeholder")}
            aria-label={t("chat.search_countries")}
            aria-controls={listId}
            value={query}
            autoFocus
            onChange={(e) => setQuery(e.target.value)}
          />
          <ul id={listId} role="listbox" aria-labelledby={labelledBy}>
            {countries === null ? (
              <li className="muted small">{t("common.loading")}</li>
            ) : shown.length === 0 ? (
              <li className="muted small">{t("chat.no_countries")}</li>
            ) : (
              shown.map((c) => (
                <li key={c.code} role="option" aria-selected={value?.code === c.code}>
                  <button type="button" onClick={() => pick(c)}>
                    <span aria-hidden="true">{flagEmoji(c.code)}</span> {c.name}
                    {c === offered && (
                      <>
                        {" "}
                        <span className="detected-badge">{suggested?.detected ? t("chat.country_detected") : t("chat.country_suggested")}</span>
                      </>
                    )}
                  </button>
                </li>
              ))
            )}
          </ul>
        </div>
      )}
    </div>
  );
}
