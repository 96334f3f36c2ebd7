// The in-call screen: the remote video fills the overlay, the local preview sits in a corner at
// 150x100 px, and the controls mute, turn the camera off and end the call. Report, next to the
// name, hands over the remote <video> so that a still of this very moment goes with the report.
import { useCallback, useRef, useState } from "react";
import { t } from "../i18n.ts";
import CallIcon, { type CallIconName } from "./CallIcon.tsx";
import StreamVideo from "./StreamVideo.tsx";
import ConnectionKindLabel from "./ConnectionKindLabel.tsx";
import type { ConnectionKind } from "./connection-kind.ts";

interface Props {
  name: string;
  localStream: MediaStream | null;
  remoteStream: MediaStream | null;
  muted: boolean;
  cameraOff: boolean;
  notice: string | null;
  connectionKind?: ConnectionKind | null;
  onToggleMute: () => void;
  onToggleCamera: () => void;
  onEnd: () => void;
  onReport: (remoteVideo: HTMLVideoElement | null) => void;
}

export default function ConnectedScreen(props: Props) {
  const { name, localStream, remoteStream, muted, cameraOff, notice } = props;
  const [enableSound, setEnableSound] = useState<(() => void) | null>(null);
  const onSoundBlocked = useCallback((enable: () => void) => setEnableSound(() => enable), []);
  const remoteVideo = useRef<HTMLVideoElement | null>(null);

  return (
    <div className="call-connected">
      <StreamVideo stream={remoteStream} label={t("call.remote_video", { name })} className="call-remote" onSoundBlocked={onSoundBlocked} videoRef={remoteVideo} />
      {!remoteStream && (
        <div className="call-waiting" role="status" aria-live="polite">
          <span className="call-spinner" aria-hidden="true" />
          {t("call.connecting_to", { name })}
        </div>
      )}
      <div className="call-topbar">
        <h2 className="call-name" id="call-heading">
          {name}
        </h2>
        <button type="button" className="call-report" onClick={() => props.onReport(remoteVideo.current)} title={t("call.report_title", { name })}>
          <CallIcon name="flag" size={16} /> {t("call.report")}
        </button>
        <ConnectionKindLabel kind={props.connectionKind ?? null} className="call-connection" />
        {notice && (
          <span className="call-notice" role="status">
            {notice}
          </span>
        )}
      </div>
      <div className={`call-local-wrap${cameraOff ? " is-off" : ""}`}>
        <StreamVideo stream={localStream} label={t("call.your_camera")} className="call-local" muted />
        {cameraOff && <span className="call-local-off">{t("call.camera_off")}</span>}
      </div>
      {enableSound && (
        <button
          type="button"
          className="call-sound"
          onClick={() => {
            enableSound();
            setEnableSound(null);
          }}
        >
          <CallIcon name="volume" size={18} /> {t("call.turn_on_sound")}
        </button>
      )}
      <div className="call-controls" role="toolbar" aria-label={t("call.controls")}>
        <ToggleControl
          pressed={muted}
          onClick={props.onToggleMute}
          label={muted ? t("call.unmute_microphone") : t("call.mute_microphone")}
          title={muted ? t("call.unmute") : t("call.mute")}
          icon={muted ? "micOff" : "mic"}
        />
        <ToggleControl
          pressed={cameraOff}
          onClick={props.onToggleCamera}
          label={cameraOff ? t("call.turn_camera_on") : t("call.turn_camera_off")}
          title={cameraOff ? t("call.camera_on") : t("call.camera_off")}
          icon={cameraOff ? "videoOff" : "video"}
        />
        <button type="button" className="call-control is-end" onClick={props.onEnd} aria-label={t("call.end")} title={t("call.end")} data-autofocus>
          <CallIcon name="hangUp" size={28} />
        </button>
      </div>
    </div>
  );
}

interface ToggleControlProps {
  pressed: boolean;
  onClick: () => void;
  label: string;
  title: string;
  icon: CallIconName;
}

/** A call control that stays pressed while its feature is off (mute, camera). */
function ToggleControl({ pressed, onClick, label, title, icon }: ToggleControlProps) {
  return (
    <button type="button" className={`call-control${pressed ? " is-active" : ""}`} onClick={onClick} aria-pressed={pressed} aria-label={label} title={title}>
      <CallIcon name={icon} />
    </button>
  );
}
