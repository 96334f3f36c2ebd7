// Edit Profile: display name, gender, age, country, orientation, interests and the languages I
// speak (issue 24); 'Save Changes' or 'Cancel'.
import { useSignals } from "@preact/signals-react/runtime";
import { useCallback, useEffect, useId, useState } from "react";
import LanguagePicker from "../interests/LanguagePicker.tsx";
import TagInput from "../interests/TagInput.tsx";
import { saveProfile } from "../lib/account.ts";
import { AGES, GENDERS, optionLabel, ORIENTATIONS } from "../lib/format.ts";
import type { DetectedCountry } from "../lib/country-detect.ts";
import type { Country } from "../lib/types.ts";
import { useChat } from "./context.ts";
import CountryPicker from "./CountryPicker.tsx";
import NameField, { nameProblem } from "./NameField.tsx";
import { t } from "../i18n.ts";

export default function ProfileForm({ onDone }: { onDone: () => void }) {
  useSignals();
  const controller = useChat();
  const me = controller.store.me.value;
  const id = useId();
  const [name, setName] = useState(me.name);
  const [gender, setGender] = useState(me.gender);
  const [age, setAge] = useState(me.age ? String(me.age) : "");
  const [orientation, setOrientation] = useState(me.orientation || "heterosexual");
  const [country, setCountry] = useState<Country | null>(
    me.country_code && me.country_name ? { code: me.country_code, name: me.country_name } : null,
  );
  const [interests, setInterests] = useState<string[]>(me.interests ?? []);
  const [languages, setLanguages] = useState<string[]>(me.languages ?? []);
  const suggest = useCallback((prefix: string) => controller.api.interestSuggestions(prefix), [controller]);
  const [saving, setSaving] = useState(false);
  const invalid = nameProblem(name) !== null;
  // No country yet (every guest starts so): the picker offers the detected one first, else US.
  const [suggested, setSuggested] = useState<DetectedCountry | null>(null);
  const hasCountry = Boolean(me.country_code);
  useEffect(() => {
    if (hasCountry) return;
    let live = true;
    void controller.api.detectCountry().then((found) => live && setSuggested(found));
    return () => {
      live = false;
    };
  }, [hasCountry, controller]);

  const save = async () => {
    if (invalid) return;
    setSaving(true);
    const ok = await saveProfile(controller, {
      name,
      gender,
      age: age ? Number(age) : null,
      country_code: country?.code ?? null,
      country_name: country?.name ?? null,
      orientation,
      interests,
      languages,
    });
    setSaving(false);
    if (ok) onDone();
  };

  return (
    <form
      className="profile-form"
      onSubmit={(e) => {
        e.preventDefault();
        void save();
      }}
    >
      <NameField id={`${id}-name`} value={name} onChange={setName} />
      <div className="field-row">
        <label className="field" htmlFor={`${id}-gender`}>
          <span>{t("chat.field_gender")}</span>
          <select id={`${id}-gender`} value={gender} onChange={(e) => setGender(e.target.value)}>
            {GENDERS.map((g) => (
              <option key={g} value={g}>{optionLabel(g)}</option>
            ))}
          </select>
        </label>
        <label className="field" htmlFor={`${id}-age`}>
          <span>{t("chat.field_age")}</span>
          <select id={`${id}-age`} value={age} onChange={(e) => setAge(e.target.value)}>
            <option value="">{t("chat.not_set")}</option>
            {AGES.map((a) => (
              <option key={a} value={a}>{a}</option>
            ))}
          </select>
        </label>
      </div>
      <div className="field">
        <span id={`${id}-country`}>{t("chat.field_country")}</span>
        <CountryPicker value={country} onChange={setCountry} labelledBy={`${id}-country`} suggested={suggested} />
      </div>
      <label className="field" htmlFor={`${id}-orientation`}>
        <span>{t("chat.field_orientation")}</span>
        <select id={`${id}-orientation`} value={orientation} onChange={(e) => setOrientation(e.target.value)}>
          {ORIENTATIONS.map((o) => (
            <option key={o} value={o}>{optionLabel(o)}</option>
          ))}
        </select>
      </label>
      <TagInput value={interests} onChange={setInterests} suggest={suggest} />
      <LanguagePicker value={languages} onChange={setLanguages} />
      <div className="form-actions">
        <button type="button" className="button" onClick={onDone} disabled={saving}>
          {t("chat.cancel")}
        </button>
        <button type="submit" className="button primary" disabled={saving || invalid}>
          {saving ? t("chat.saving") : t("chat.save_changes")}
        </button>
      </div>
    </form>
  );
}
