// The call overlay, loaded lazily by CallLayer when a call starts or rings: it runs one
// CallSession for its lifetime and renders that session's state.
import { useEffect, useMemo, useRef, useState, useSyncExternalStore } from "react";
import { t } from "../i18n.ts";
import { captureStill } from "../media/still.ts";
import type { ReportTarget } from "../safety/ReportDialog.tsx";
import { browserCallDeps } from "./browser-deps.ts";
import { CallSession } from "./call-session.ts";
import type { CallRequest } from "./call-state.ts";
import CallView, { type CallActions } from "./CallView.tsx";
import { SetupScreen } from "./CallScreens.tsx";
import CallStyles from "./CallStyles.tsx";
import type { IceConfig } from "./peer-config.ts";
import type { IceSource } from "./ice-source.ts";
import type { CallSocket } from "./ports.ts";

export interface CallOverlayProps {
  request: CallRequest;
  socket: CallSocket;
  ice: IceConfig;
  /** Fresh ICE settings for this call (GET /api/ice); without it `ice` is used. */
  freshIce?: IceSource;
  onClose: (notice: string | null) => void;
  /** Asks an account made before the 18+ box to confirm (true once confirmed). */
  ensureAdult: () => Promise<boolean>;
  /** Opens the report dialog; CallLayer keeps it open even if the call ends meanwhile. */
  onReport: (target: ReportTarget) => void;
  /** A dialog opened from the call is on top: the call's focus trap rests. */
  covered: boolean;
}

const noSubscription = () => () => {};
const noState = () => null;

export default function CallOverlay({ request, socket, ice, freshIce, onClose, ensureAdult, onReport, covered }: CallOverlayProps) {
  const [session, setSession] = useState<CallSession | null>(null);
  const [confirming, setConfirming] = useState(false);
  const close = useRef(onClose);
  close.current = onClose;
  const callbacks = useRef({ ensureAdult, onReport });
  callbacks.current = { ensureAdult, onReport };
  // The socket and ICE settings of the moment the call starts; a re-render must not restart it.
  const setup = useRef({ socket, ice, freshIce });

  // Created in an effect: PeerJS needs `location`, and the server never renders a call.
  useEffect(() => {
    const { socket: callSocket, ice: iceConfig, freshIce: source } = setup.current;
    const created = new CallSession(request, browserCallDeps(callSocket, source ?? (() => Promise.resolve(iceConfig)), (notice) => close.current(notice)));
    setSession(created);
    void created.start();
    return () => created.dispose();
  }, [request]);

  const state = useSyncExternalStore(session?.subscribe ?? noSubscription, session?.getState ?? noState);
  const actions = useMemo<CallActions | null>(
    () =>
      session && {
        accept: () => {
          setConfirming(true);
          void callbacks.current.ensureAdult().then((adult) => {
            setConfirming(false);
            if (adult) void session.accept();
          });
        },
        decline: () => session.decline(),
        hangUp: () => session.hangUp(),
        toggleMute: () => session.toggleMute(),
        toggleCamera: () => session.toggleCamera(),
        report: (remoteVideo) => {
          // The still is taken at once, before the other person can turn away or hang up.
          const still = remoteVideo ? captureStill(remoteVideo) : Promise.resolve(null);
          const { contact } = session.getState();
          void still.then((blob) => callbacks.current.onReport({ context: "call", name: contact.name, userId: contact.id, still: blob }));
        },
      },
    [session],
  );

  if (!session || !state || !actions) {
    return (
      <div className="call-overlay" role="dialog" aria-modal="true" aria-label={t("call.with", { name: request.contact.name })}>
        <CallStyles />
        <SetupScreen />
      </div>
    );
  }
  return (
    <CallView
      state={state}
      localStream={session.localStream}
      remoteStream={session.remoteStream}
      actions={actions}
      focusTrapped={!covered && !confirming}
    />
  );
}
