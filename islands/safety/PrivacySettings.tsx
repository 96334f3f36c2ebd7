// Settings → Privacy: who may message and call me. Saved as soon as a choice is made.
import { t } from "../i18n.ts";
import type { Key } from "../../src/i18n/catalogues/en.ts";
import { useSignals } from "@preact/signals-react/runtime";
import { useId, useState } from "react";
import { useChat } from "../chat/context.ts";
import { errorText } from "../lib/api.ts";
import type { AllowFrom } from "../lib/types.ts";
import SettingsScreen from "./SettingsScreen.tsx";

const CHOICES: { value: AllowFrom; label: Key; hint: Key }[] = [
  { value: "everyone", label: "safety.privacy_everyone", hint: "safety.privacy_everyone_hint" },
  { value: "contacts", label: "safety.privacy_contacts", hint: "safety.privacy_contacts_hint" },
];

export default function PrivacySettings() {
  useSignals();
  const controller = useChat();
  const { store } = controller;
  const current = store.me.value.allow_from;
  const [saving, setSaving] = useState(false);
  const id = useId();

  const choose = async (allowFrom: AllowFrom) => {
    if (allowFrom === current || saving) return;
    setSaving(true);
    try {
      const { user } = await controller.api.setPrivacy(allowFrom);
      store.me.value = user;
      controller.notify.success(t("safety.privacy_saved"));
    } catch (failure) {
      controller.notify.error(errorText(failure, t("safety.privacy_failed")));
    } finally {
      setSaving(false);
    }
  };

  return (
    <SettingsScreen id="privacy-heading" title={t("chat.settings_privacy")}>
      <div className="card privacy-settings">
        <fieldset className="privacy-choices" disabled={saving}>
          <legend>
            <h3>{t("safety.privacy_who")}</h3>
          </legend>
          {CHOICES.map((choice) => (
            <label key={choice.value} className="privacy-choice">
              <input
                type="radio"
                name={`${id}-allow-from`}
                value={choice.value}
                checked={current === choice.value}
                onChange={() => void choose(choice.value)}
              />
              <span className="privacy-choice-text">
                <span className="privacy-choice-label">{t(choice.label)}</span>
                <span className="muted small">{t(choice.hint)}</span>
              </span>
            </label>
          ))}
        </fieldset>
      </div>
    </SettingsScreen>
  );
}
