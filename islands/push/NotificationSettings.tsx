// Settings → Notifications (issue 26): notifications on this device when no tab is open, and
// whether they show what was written. Off by default: on a shared screen a notification says who
// wrote, not what. Saved on the server per device (POST/DELETE /api/push/subscriptions).
import { useEffect, useId, useState } from "react";
import { useChat } from "../chat/context.ts";
import { errorText } from "../lib/api.ts";
import SettingsScreen from "../safety/SettingsScreen.tsx";
import { currentSubscription, pushSupport, subscribe, type PushSupport } from "./device.ts";
import { t } from "../i18n.ts";

type State = { kind: "loading" } | { kind: "off" } | { kind: "on"; subscription: PushSubscription; previews: boolean };

export default function NotificationSettings() {
  const controller = useChat();
  const [support, setSupport] = useState<PushSupport | null>(null);
  const [state, setState] = useState<State>({ kind: "loading" });
  const [saving, setSaving] = useState(false);
  const id = useId();

  useEffect(() => {
    const supported = pushSupport();
    setSupport(supported);
    if (supported === "unsupported") return;
    let live = true;
    (async () => {
      const [subscription, { devices }] = await Promise.all([currentSubscription(), controller.api.pushDevices()]);
      const device = subscription ? devices.find((d) => d.endpoint === subscription.endpoint) : undefined;
      if (live) setState(subscription && device ? { kind: "on", subscription, previews: device.previews } : { kind: "off" });
    })().catch((failure: unknown) => {
      console.warn("[push] could not read this device's notifications", failure);
      if (live) setState({ kind: "off" });
    });
    return () => {
      live = false;
    };
  }, [controller]);

  const run = async (work: () => Promise<void>, failed: string) => {
    if (saving) return;
    setSaving(true);
    try {
      await work();
    } catch (failure) {
      controller.notify.error(errorText(failure, failed));
    } finally {
      setSaving(false);
    }
  };

  const turnOn = () =>
    run(async () => {
      if ((await Notification.requestPermission()) !== "granted") {
        setSupport(pushSupport());
        controller.notify.error(t("chat.push_blocked_toast"));
        return;
      }
      const { publicKey } = await controller.api.pushKey();
      const subscription = await subscribe(publicKey);
      const { device } = await controller.api.pushSubscribe(subscription.toJSON(), false);
      setState({ kind: "on", subscription, previews: device.previews });
      controller.notify.success(t("chat.push_on"));
    }, t("chat.push_on_failed"));

  const turnOff = (subscription: PushSubscription) =>
    run(async () => {
      await controller.api.pushUnsubscribe(subscription.endpoint);
      await subscription.unsubscribe();
      setState({ kind: "off" });
      controller.notify.success(t("chat.push_off"));
    }, t("chat.push_off_failed"));

  const setPreviews = (subscription: PushSubscription, previews: boolean) =>
    run(async () => {
      const { device } = await controller.api.pushSubscribe(subscription.toJSON(), previews);
      setState({ kind: "on", subscription, previews: device.previews });
      controller.notify.success(t("chat.push_saved"));
    }, t("chat.push_save_failed"));

  let body;
  if (support === "unsupported") {
    body = <p className="muted">{t("chat.push_unsupported")}</p>;
  } else if (support === "denied") {
    body = <p className="muted">{t("chat.push_blocked")}</p>;
  } else if (support === null || state.kind === "loading") {
    body = <p className="muted">{t("common.loading")}</p>;
  } else {
    const on = state.kind === "on";
    body = (
      <fieldset className="privacy-choices" disabled={saving}>
        <legend>
          <h3>{t("chat.push_when")}</h3>
        </legend>
        <label className="privacy-choice">
          <input type="checkbox" checked={on} onChange={() => void (state.kind === "on" ? turnOff(state.subscription) : turnOn())} aria-describedby={`${id}-on`} />
          <span className="privacy-choice-text">
            <span className="privacy-choice-label">{t("chat.push_device")}</span>
            <span className="muted small" id={`${id}-on`}>
              {t("chat.push_device_hint")}
            </span>
          </span>
        </label>
        <label className="privacy-choice">
          <input
            type="checkbox"
            checked={state.kind === "on" && state.previews}
            disabled={!on}
            onChange={() => state.kind === "on" && void setPreviews(state.subscription, !state.previews)}
            aria-describedby={`${id}-previews`}
          />
          <span className="privacy-choice-text">
            <span className="privacy-choice-label">{t("chat.push_previews")}</span>
            <span className="muted small" id={`${id}-previews`}>
              {t("chat.push_previews_hint")}
            </span>
          </span>
        </label>
      </fieldset>
    );
  }

  return (
    <SettingsScreen id="notifications-heading" title={t("chat.settings_notifications")}>
      <div className="card privacy-settings">{body}</div>
    </SettingsScreen>
  );
}
