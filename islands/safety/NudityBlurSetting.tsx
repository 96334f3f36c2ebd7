// Settings → Safety: "Blur nudity in video and pictures", on by default (issue 12). Turning it
// off is one confirmation away, since it is the one switch that lets a stranger's nudity through;
// turning it on is immediate. The choice is stored on the account, so it follows the user.
import { useSignals } from "@preact/signals-react/runtime";
import { useId, useState } from "react";
import { useChat } from "../chat/context.ts";
import { errorText } from "../lib/api.ts";

export default function NudityBlurSetting() {
  useSignals();
  const controller = useChat();
  const { store } = controller;
  const on = store.me.value.blur_nudity !== false;
  const [confirming, setConfirming] = useState(false);
  const [saving, setSaving] = useState(false);
  const id = useId();

  const save = async (value: boolean) => {
    setSaving(true);
    try {
      const { user } = await controller.api.setBlurNudity(value);
      store.me.value = user;
      controller.notify.success(value ? "Nudity will be blurred" : "Nudity will no longer be blurred");
    } catch (failure) {
      controller.notify.error(errorText(failure, "Could not save your safety settings. Please try again."));
    } finally {
      setSaving(false);
      setConfirming(false);
    }
  };

  return (
    <div className="card nudity-setting" aria-labelledby={`${id}-title`} role="group">
      <h3 id={`${id}-title`}>Safety</h3>
      <label className="privacy-choice">
        <input type="checkbox" checked={on} disabled={saving || confirming} onChange={() => (on ? setConfirming(true) : void save(true))} />
        <span className="privacy-choice-text">
          <span className="privacy-choice-label">Blur nudity in video and pictures</span>
          <span className="muted small">Checked on this device: no video frame or picture is sent anywhere to be checked.</span>
        </span>
      </label>
      {confirming && (
        <div className="nudity-confirm" role="alertdialog" aria-labelledby={`${id}-confirm`}>
          <p id={`${id}-confirm`}>Turn off the blur? Strangers' video and explicit pictures will show as they are.</p>
          <button type="button" className="btn btn-primary" disabled={saving} onClick={() => void save(false)}>
            Turn off
          </button>{" "}
          <button type="button" className="btn" disabled={saving} onClick={() => setConfirming(false)}>
            Keep blurring
          </button>
        </div>
      )}
    </div>
  );
}
