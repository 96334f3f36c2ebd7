// The in-call screen: the remote video fills the overlay, the local preview sits in a corner at
// 150x100 px, and the controls mute, turn the camera off and end the call. Report, next to the
// name, hands over the remote <video> so that a still of this very moment goes with the report.
import { useCallback, useRef, useState } from "react";
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
      <StreamVideo stream={remoteStream} label={`${name}'s video`} className="call-remote" onSoundBlocked={onSoundBlocked} videoRef={remoteVideo} />
      {!remoteStream && (
        <div className="call-waiting" role="status" aria-live="polite">
          <span className="call-spinner" aria-hidden="true" />
          Connecting to {name}...
        </div>
      )}
      <div className="call-topbar">
        <h2 className="call-name" id="call-heading">
          {name}
        </h2>
        <button type="button" className="call-report" onClick={() => props.onReport(remoteVideo.current)} title={`Report ${name}`}>
          <CallIcon name="flag" size={16} /> Report
        </button>
        <ConnectionKindLabel kind={props.connectionKind ?? null} className="call-connection" />
        {notice && (
          <span className="call-notice" role="status">
            {notice}
          </span>
        )}
      </div>
      <div className={`call-local-wrap${cameraOff ? " is-off" : ""}`}>
        <StreamVideo stream={localStream} label="Your camera" className="call-local" muted />
        {cameraOff && <span className="call-local-off">Camera off</span>}
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
          <CallIcon name="volume" size={18} /> Turn on sound
        </button>
      )}
      <div className="call-controls" role="toolbar" aria-label="Call controls">
        <ToggleControl
          pressed={muted}
          onClick={props.onToggleMute}
          label={muted ? "Unmute microphone" : "Mute microphone"}
          title={muted ? "Unmute" : "Mute"}
          icon={muted ? "micOff" : "mic"}
        />
        <ToggleControl
          pressed={cameraOff}
          onClick={props.onToggleCamera}
          label={cameraOff ? "Turn camera on" : "Turn camera off"}
          title={cameraOff ? "Camera on" : "Camera off"}
          icon={cameraOff ? "videoOff" : "video"}
        />
        <button type="button" className="call-control is-end" onClick={props.onEnd} aria-label="End call" title="End call" data-autofocus>
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
