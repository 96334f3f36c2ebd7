// Always on the chat screen and deliberately tiny: it waits for a call to start (the chat
// header's video button dispatches "webchat:start-call") or to ring (the socket's
// incoming_call), and only then loads the call overlay, and with it PeerJS. It also hands the
// socket and ICE settings to Video Roulette, which renders inside it. The report dialog opened
// from a call lives here, not in the overlay, so that hanging up cannot take a report away.
import { lazy, Suspense, useCallback, useEffect, useMemo, useRef, useState, type ReactNode } from "react";
import { useChat } from "../chat/context.ts";
import { t } from "../i18n.ts";
import { ensureAdult } from "../safety/adult-gate.ts";
import type { ReportTarget } from "../safety/ReportDialog.tsx";
import type { CallRequest } from "./call-state.ts";
import type { IceConfig } from "./peer-config.ts";
import { VideoContext, type VideoSocket } from "./video-context.ts";
import { iceSource } from "./ice-source.ts";
import { whenRealtime } from "../lib/socket.ts";
import type { ServerEvents } from "../../src/realtime/protocol.ts";

const CallOverlay = lazy(() => import("./CallOverlay.tsx"));
const ReportDialog = lazy(() => import("../safety/ReportDialog.tsx"));

export const START_CALL_EVENT = "webchat:start-call";

interface Props {
  /** The page's realtime client; null until it exists. */
  socket: VideoSocket | null;
  ice: IceConfig;
  /** Shows a toast, such as "Bob declined the call". */
  notify: (text: string) => void;
  /** The chat screen. */
  children?: ReactNode;
}

/** Reads {contactId, contactName} from the start-call event; anything else is ignored. */
export function startRequest(event: Event): CallRequest | null {
  if (!(event instanceof CustomEvent) || typeof event.detail !== "object" || event.detail === null) return null;
  const detail: { contactId?: unknown; contactName?: unknown } = event.detail;
  const id = Number(detail.contactId);
  if (!Number.isInteger(id) || id < 1 || typeof detail.contactName !== "string") return null;
  return { role: "caller", contact: { id, name: detail.contactName } };
}

export default function CallLayer({ socket, ice, notify, children }: Props) {
  const chat = useChat();
  const { api } = chat;
  // Every call fetches its own ICE settings and TURN credentials when it starts (GET /api/ice).
  const freshIce = useMemo(() => iceSource(() => api.ice(), ice), [api, ice]);
  const [request, setRequest] = useState<CallRequest | null>(null);
  const [report, setReport] = useState<ReportTarget | null>(null);
  const busy = useRef(false);
  busy.current = request !== null;
  const notifyRef = useRef(notify);
  notifyRef.current = notify;

  useEffect(() => {
    const onStart = (event: Event) => {
      const next = startRequest(event);
      if (!next) return;
      if (busy.current) return notifyRef.current(t("call.already_in_call"));
      // Accounts made before the 18+ box confirm once before their first call.
      void ensureAdult(chat).then((adult) => {
        if (!adult) return;
        if (busy.current) return notifyRef.current(t("call.already_in_call"));
        setRequest(next);
      });
    };
    window.addEventListener(START_CALL_EVENT, onStart);
    const onIncoming = ({ callerId, callerName, callerPeerId }: ServerEvents["incoming_call"]) => {
      // The server answers "busy" for a second caller; another tab's call is not this one's. A tab
      // in Video Roulette lets it ring out unseen: the caller hears "no answer", as from anyone.
      if (busy.current || chat.store.rouletteActive.value) return;
      const avatarUrl = chat.knownUser(callerId)?.avatar_url ?? null;
      setRequest({ role: "receiver", contact: { id: callerId, name: callerName, avatarUrl }, callerPeerId });
    };
    // A call that rings while the page (re)loads reaches the new tab as soon as its socket opens,
    // possibly before the chat screen has handed the socket down: until then this listens on the
    // page's client from the moment it starts (this effect runs before the chat screen's).
    let off: (() => void) | undefined;
    const stopWaiting = socket ? null : whenRealtime((client) => (off = client.on("incoming_call", onIncoming)));
    if (socket) off = socket.on("incoming_call", onIncoming);
    return () => {
      window.removeEventListener(START_CALL_EVENT, onStart);
      stopWaiting?.();
      off?.();
    };
  }, [socket, chat]);

  useEffect(() => {
    chat.store.callOpen.value = request !== null;
  }, [request, chat]);

  const onClose = useCallback((notice: string | null) => {
    setRequest(null);
    if (notice) notifyRef.current(notice);
  }, []);
  const confirmAdult = useCallback(() => ensureAdult(chat), [chat]);

  const settings = useMemo(() => ({ socket, ice }), [socket, ice]);
  return (
    <VideoContext.Provider value={settings}>
      {children}
      {request && socket && (
        <Suspense fallback={null}>
          <CallOverlay
            request={request}
            socket={socket}
            ice={ice}
            freshIce={freshIce}
            onClose={onClose}
            ensureAdult={confirmAdult}
            onReport={setReport}
            covered={report !== null}
          />
        </Suspense>
      )}
      {report && (
        <Suspense fallback={null}>
          <ReportDialog target={report} onClose={() => setReport(null)} />
        </Suspense>
      )}
    </VideoContext.Provider>
  );
}
