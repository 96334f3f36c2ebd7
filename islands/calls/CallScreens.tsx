// The three screens before a call connects (spec section 2 "Call screens"): camera loading,
// incoming (receiver) and outgoing (caller). The incoming screen shows who calls and no camera
// at all: the receiver's camera starts only with Accept.
import { t } from "../i18n.ts";
import CallIcon from "./CallIcon.tsx";
import StreamVideo from "./StreamVideo.tsx";

export function initialOf(name: string): string {
  const first = Array.from(name.trim())[0];
  return first ? first.toUpperCase() : "?";
}

export function SetupScreen() {
  return (
    <div className="call-center" role="status" aria-live="polite">
      <span className="call-spinner" aria-hidden="true" />
      <p className="call-title">{t("call.setting_up")}</p>
    </div>
  );
}

interface IncomingProps {
  name: string;
  avatarUrl?: string | null;
  onAccept: () => void;
  onDecline: () => void;
}

export function IncomingScreen({ name, avatarUrl, onAccept, onDecline }: IncomingProps) {
  return (
    <div className="call-center">
      <div className="call-avatar is-ringing" aria-hidden="true">
        {avatarUrl ? <img className="call-avatar-img" src={avatarUrl} alt="" /> : initialOf(name)}
      </div>
      <h2 className="call-title" id="call-heading">
        {name}
      </h2>
      <p className="call-subtitle">{t("call.is_calling")}</p>
      <div className="call-actions">
        <button type="button" className="call-action is-accept" onClick={onAccept} data-autofocus>
          <span className="call-round" aria-hidden="true">
            <CallIcon name="phone" size={28} />
          </span>
          {t("call.accept")}
        </button>
        <button type="button" className="call-action is-decline" onClick={onDecline}>
          <span className="call-round" aria-hidden="true">
            <CallIcon name="hangUp" size={30} />
          </span>
          {t("call.decline")}
        </button>
      </div>
    </div>
  );
}

interface OutgoingProps {
  name: string;
  localStream: MediaStream | null;
  onCancel: () => void;
}

export function OutgoingScreen({ name, localStream, onCancel }: OutgoingProps) {
  return (
    <div className="call-center">
      <div className="call-local-wrap">
        <StreamVideo stream={localStream} label={t("call.your_camera")} className="call-local" muted />
      </div>
      <div className="call-avatar is-calling" aria-hidden="true">
        {initialOf(name)}
      </div>
      <h2 className="call-title" id="call-heading">
        {t("call.calling", { name })}
      </h2>
      <p className="call-subtitle">{t("call.waiting_answer")}</p>
      <div className="call-actions">
        <button type="button" className="call-action is-decline" onClick={onCancel} data-autofocus>
          <span className="call-round" aria-hidden="true">
            <CallIcon name="hangUp" size={30} />
          </span>
          {t("call.cancel")}
        </button>
      </div>
    </div>
  );
}
