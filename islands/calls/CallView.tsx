// The call overlay as a modal dialog: it picks the screen for the call's state, keeps focus
// inside, and moves focus to the main button of each new screen.
import { useEffect, useRef } from "react";
import { t } from "../i18n.ts";
import ConnectedScreen from "./ConnectedScreen.tsx";
import { IncomingScreen, OutgoingScreen, SetupScreen } from "./CallScreens.tsx";
import CallStyles from "./CallStyles.tsx";
import { screenFor, type CallState } from "./call-state.ts";
import { useFocusTrap } from "./useFocusTrap.ts";

export interface CallActions {
  accept(): void;
  decline(): void;
  hangUp(): void;
  toggleMute(): void;
  toggleCamera(): void;
  /** Report: takes the still of the remote video and opens the report dialog. */
  report(remoteVideo: HTMLVideoElement | null): void;
}

interface Props {
  state: CallState;
  localStream: MediaStream | null;
  remoteStream: MediaStream | null;
  actions: CallActions;
  /** False while a dialog opened from the call (Report) is on top: focus belongs to it. */
  focusTrapped?: boolean;
}

export default function CallView({ state, localStream, remoteStream, actions, focusTrapped = true }: Props) {
  const ref = useRef<HTMLDivElement>(null);
  useFocusTrap(ref, focusTrapped);
  const screen = screenFor(state);
  const name = state.contact.name;

  useEffect(() => {
    const root = ref.current;
    (root?.querySelector<HTMLElement>("[data-autofocus]") ?? root)?.focus();
  }, [screen]);

  return (
    <div ref={ref} className="call-overlay" role="dialog" aria-modal="true" aria-label={t("call.with", { name })} tabIndex={-1} data-screen={screen}>
      <CallStyles />
      {screen === "setup" && <SetupScreen />}
      {screen === "incoming" && <IncomingScreen name={name} avatarUrl={state.contact.avatarUrl} onAccept={actions.accept} onDecline={actions.decline} />}
      {screen === "outgoing" && <OutgoingScreen name={name} localStream={localStream} onCancel={actions.hangUp} />}
      {screen === "connected" && (
        <ConnectedScreen
          name={name}
          localStream={localStream}
          remoteStream={remoteStream}
          muted={state.muted}
          cameraOff={state.cameraOff}
          notice={state.notice}
          connectionKind={state.connectionKind}
          onToggleMute={actions.toggleMute}
          onToggleCamera={actions.toggleCamera}
          onEnd={actions.hangUp}
          onReport={actions.report}
        />
      )}
    </div>
  );
}
