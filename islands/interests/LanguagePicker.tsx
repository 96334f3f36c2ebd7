// The languages a person speaks (issue 24): chosen ones as tags with a remove button each, and a
// list with an Add button (a select that added on change would add at every arrow key).
import { useId, useMemo, useState } from "react";
import { MAX_LANGUAGES } from "../../src/users/values.ts";
import InterestStyles from "./InterestStyles.tsx";
import { languageName, languageOptions } from "./languages.ts";
import { INTEREST_TEXTS as T } from "./texts.ts";

export interface LanguagePickerProps {
  value: readonly string[];
  onChange: (codes: string[]) => void;
  label?: string;
  max?: number;
}

export default function LanguagePicker({ value, onChange, label = T.languages, max = MAX_LANGUAGES }: LanguagePickerProps) {
  const id = useId();
  const [choice, setChoice] = useState("");
  const [said, setSaid] = useState("");
  const options = useMemo(() => languageOptions().filter((o) => !value.includes(o.code)), [value]);
  const full = value.length >= max;
  const add = () => {
    if (!choice || full || value.includes(choice)) return;
    onChange([...value, choice]);
    setSaid(T.languageAdded(languageName(choice)));
    setChoice("");
  };
  return (
    <fieldset className="language-picker">
      <InterestStyles />
      <legend>{label}</legend>
      {value.length > 0 && (
        <ul className="tag-list" aria-label={label}>
          {value.map((code) => (
            <li className="tag" key={code}>
              <span>{languageName(code)}</span>
              <button
                type="button"
                className="tag-remove"
                aria-label={T.remove(languageName(code))}
                onClick={() => {
                  onChange(value.filter((c) => c !== code));
                  setSaid(T.removed(languageName(code)));
                }}
              >
                <span aria-hidden="true">×</span>
              </button>
            </li>
          ))}
        </ul>
      )}
      <div className="language-add">
        <select id={`${id}-add`} aria-label={T.addLanguage} value={choice} disabled={full} onChange={(e) => setChoice(e.target.value)}>
          <option value="">{full ? T.languagesFull(max) : T.addLanguage}</option>
          {options.map((o) => (
            <option key={o.code} value={o.code}>
              {o.label}
            </option>
          ))}
        </select>
        <button type="button" onClick={add} disabled={full || !choice}>
          {T.add}
        </button>
      </div>
      <span className="visually-hidden" aria-live="polite">
        {said}
      </span>
    </fieldset>
  );
}
