// Settings → Privacy: who may message and call me. Saved as soon as a choice is made.
import { useSignals } from "@preact/signals-react/runtime";
import { useId, useState } from "react";
import { useChat } from "../chat/context.ts";
import { errorText } from "../lib/api.ts";
import type { AllowFrom } from "../lib/types.ts";
import SettingsScreen from "./SettingsScreen.tsx";

const CHOICES: { value: AllowFrom; label: string; hint: string }[] = [
  { value: "everyone", label: "Everyone", hint: "Anyone on the site can message and call you." },
  {
    value: "contacts",
    label: "People I have written to",
    hint: "Others can't message or call you; to them you appear offline for calls.",
  },
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
      controller.notify.success("Privacy settings saved");
    } catch (failure) {
      controller.notify.error(errorText(failure, "Could not save your privacy settings. Please try again."));
    } finally {
      setSaving(false);
    }
  };

  return (
    <SettingsScreen id="privacy-heading" title="Privacy">
      <div className="card privacy-settings">
        <fieldset className="privacy-choices" disabled={saving}>
          <legend>
            <h3>Who can message and call me</h3>
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
                <span className="privacy-choice-label">{choice.label}</span>
                <span className="muted small">{choice.hint}</span>
              </span>
            </label>
          ))}
        </fieldset>
      </div>
    </SettingsScreen>
  );
}
