// Settings → Language: the interface language, saved on the account and as the `lang` cookie
// (PUT /api/users/locale sets both), then the page reloads in it: every text on the screen, the
// island's strings included, comes from the server in the chosen language.
import { useSignals } from "@preact/signals-react/runtime";
import { useId, useState } from "react";
import { LOCALES, LOCALE_NAMES, intlTag, type Locale } from "../../src/i18n/locales.ts";
import { errorText } from "../lib/api.ts";
import { locale as pageLocale, t } from "../i18n.ts";
import SettingsScreen from "../safety/SettingsScreen.tsx";
import { useChat } from "./context.ts";

export default function LanguageSettings() {
  useSignals();
  const controller = useChat();
  const current = pageLocale();
  const [saving, setSaving] = useState(false);
  const id = useId();

  const choose = async (locale: Locale) => {
    if (locale === current || saving) return;
    setSaving(true);
    try {
      const { user } = await controller.api.setLocale(locale);
      controller.store.me.value = user;
      window.location.reload();
    } catch (failure) {
      controller.notify.error(errorText(failure, t("lang.save_failed")));
      setSaving(false);
    }
  };

  return (
    <SettingsScreen id="language-heading" title={t("lang.settings_title")}>
      <div className="card privacy-settings">
        <fieldset className="privacy-choices" disabled={saving}>
          <legend>
            <h3>{t("lang.label")}</h3>
          </legend>
          <p className="muted small">{t("lang.settings_hint")}</p>
          {LOCALES.map((locale) => (
            <label key={locale} className="privacy-choice">
              <input type="radio" name={`${id}-locale`} value={locale} checked={current === locale} onChange={() => void choose(locale)} />
              <span className="privacy-choice-text">
                <span className="privacy-choice-label" lang={intlTag(locale)}>
                  {LOCALE_NAMES[locale]}
                </span>
              </span>
            </label>
          ))}
        </fieldset>
      </div>
    </SettingsScreen>
  );
}
