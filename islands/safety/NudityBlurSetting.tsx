// Settings → Safety: "Blur nudity in video and pictures", on by default (issue 12). The first time
// it is turned off in this browser it asks for confirmation, since it is the one switch that lets
// a stranger's nudity through; the confirmation is remembered in this browser's local storage
// (KEYS.nudityBlurOffConfirmed, with the user id), so later it turns off without asking. Turning
// it on is immediate. The choice itself is stored on the account, so it follows the user.
import { t } from "../i18n.ts";
import { useSignals } from "@preact/signals-react/runtime";
import { useId, useState } from "react";
import { useChat } from "../chat/context.ts";
import { errorText } from "../lib/api.ts";
import { KEYS, readKey, writeKey } from "../lib/storage.ts";

export default function NudityBlurSetting() {
  useSignals();
  const controller = useChat();
  const { store } = controller;
  const on = store.me.value.blur_nudity !== false;
  const [confirming, setConfirming] = useState(false);
  const [saving, setSaving] = useState(false);
  const id = useId();

  const confirmedBefore = () => readKey(KEYS.nudityBlurOffConfirmed) === String(store.me.value.id);
  const turnOff = () => {
    writeKey(KEYS.nudityBlurOffConfirmed, store.me.value.id);
    void save(false);
  };
  const toggle = () => {
    if (!on) void save(true);
    else if (confirmedBefore()) void save(false);
    else setConfirming(true);
  };

  const save = async (value: boolean) => {
    setSaving(true);
    try {
      const { user } = await controller.api.setBlurNudity(value);
      store.me.value = user;
      controller.notify.success(value ? t("safety.blur_on") : t("safety.blur_off"));
    } catch (failure) {
      controller.notify.error(errorText(failure, t("safety.save_failed")));
    } finally {
      setSaving(false);
      setConfirming(false);
    }
  };

  return (
    <div className="card nudity-setting" aria-labelledby={`${id}-title`} role="group">
      <h3 id={`${id}-title`}>{t("safety.nudity")}</h3>
      <label className="privacy-choice">
        <input type="checkbox" checked={on} disabled={saving || confirming} onChange={toggle} />
        <span className="privacy-choice-text">
          <span className="privacy-choice-label">{t("safety.blur_label")}</span>
          <span className="muted small">{t("safety.blur_hint")}</span>
        </span>
      </label>
      {confirming && (
        <div className="nudity-confirm" role="alertdialog" aria-labelledby={`${id}-confirm`}>
          <p id={`${id}-confirm`}>{t("safety.blur_confirm")}</p>
          <button type="button" className="btn btn-primary" disabled={saving} onClick={turnOff}>
            {t("safety.turn_off")}
          </button>{" "}
          <button type="button" className="btn" disabled={saving} onClick={() => setConfirming(false)}>
            {t("safety.keep_blurring")}
          </button>
        </div>
      )}
    </div>
  );
}
