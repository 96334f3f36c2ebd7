// The Video Roulette screen in the Video Chat tab (spec sections 2 and 4), loaded lazily with the
// tab. One RouletteSession lives as long as the screen: leaving the tab disposes of it, which
// stops the camera, closes the connection and leaves the queue. Issue 7 adds the text chat,
// Keep in touch (both pressed: the chat with that person opens, which leaves this screen),
// Report (a still at once, the pair ends, the dialog opens) and Block.
import { t } from "../i18n.ts";
import { lazy, Suspense, useCallback, useEffect, useRef, useState, useSyncExternalStore } from "react";
import { useVideoSettings } from "../calls/video-context.ts";
import { useChat } from "../chat/context.ts";
import { errorText } from "../lib/api.ts";
import { browserGetUserMedia, mediaSupported } from "../media/constraints.ts";
import { captureStill } from "../media/still.ts";
import type { Country } from "../lib/types.ts";
import { ensureAdult } from "../safety/adult-gate.ts";
import type { ReportTarget } from "../safety/ReportDialog.tsx";
import { RouletteSession } from "./roulette-session.ts";
import RouletteChat from "./RouletteChat.tsx";
import { DEFAULT_FILTERS, initialRouletteState, statusText, type RouletteSnapshot } from "./roulette-state.ts";
import RouletteControls from "./RouletteControls.tsx";
import RouletteFilters from "./RouletteFilters.tsx";
import RouletteStage from "./RouletteStage.tsx";
import RouletteStyles from "./RouletteStyles.tsx";
import { browserRtc } from "./rtc.ts";
import { iceSource } from "../calls/ice-source.ts";
import ConnectionKindLabel from "../calls/ConnectionKindLabel.tsx";
import { ipNoticeText, ipNoticeSeen, markIpNoticeSeen } from "./ip-notice.ts";
import { useIsMobile } from "./useIsMobile.ts";
import { useNudityGuard } from "./useNudityGuard.ts";

const ReportDialog = lazy(() => import("../safety/ReportDialog.tsx"));

const IDLE: RouletteSnapshot = { state: initialRouletteState(), localStream: null, remoteStream: null };
const noSubscription = () => () => {};
const idle = () => IDLE;

const PILL = { disconnected: "roulette.pill_offline", searching: "roulette.pill_searching", connecting: "roulette.pill_connecting", connected: "roulette.pill_live" } as const;

export default function Roulette() {
  const chat = useChat();
  const { api, store } = chat;
  const { socket, ice } = useVideoSettings();
  const mobile = useIsMobile();
  const [session, setSession] = useState<RouletteSession | null>(null);
  const [countries, setCountries] = useState<readonly Country[]>([]);
  const [report, setReport] = useState<ReportTarget | null>(null);
  const blocking = useRef(false);
  const suggest = useCallback((prefix: string) => api.interestSuggestions(prefix), [api]);
  const [ipNotice, setIpNotice] = useState(() => ice.iceTransportPolicy !== "relay" && !ipNoticeSeen());

  useEffect(() => {
    if (!socket) return;
    const created = new RouletteSession({
      socket,
      userId: store.me.value.id,
      ice,
      freshIce: iceSource(() => api.ice(), ice),
      getUserMedia: mediaSupported() ? browserGetUserMedia() : null,
      createRtc: browserRtc,
      onContact: (user) => {
        // Both chose to keep in touch: the chat with them opens (and this screen closes).
        chat.select(user, "chat");
        chat.selectTab("chats");
        chat.notify.success(t("roulette.kept_in_touch", { name: user.name }));
      },
    // This session's interests start as the profile's (issue 24); the Start screen changes them.
    }, { ...DEFAULT_FILTERS, interests: [...(store.me.value.interests ?? [])] });
    setSession(created);
    return () => created.dispose();
  }, [socket, ice, store, chat, api]);

  const start = async () => {
    // Accounts made before the 18+ box confirm once before their first session.
    if (session && (await ensureAdult(chat))) {
      if (ipNotice) {
        markIpNoticeSeen();
        setIpNotice(false);
      }
      void session.start();
    }
  };

  const reportStranger = (remoteVideo: HTMLVideoElement | null) => {
    if (!session) return;
    // The frame the nudity classifier flagged is the evidence (issue 12); else the frame is drawn
    // now, before the pair ends and the video goes blank.
    const { flaggedStill: flagged, backend } = nudity.snapshot;
    const still = flagged ? Promise.resolve(flagged) : remoteVideo ? captureStill(remoteVideo) : Promise.resolve(null);
    const rouletteId = session.leaveToReport();
    if (!rouletteId) return;
    void still.then((blob) => setReport({ context: "roulette", name: t("roulette.stranger"), rouletteId, still: blob, stillBackend: backend }));
  };

  const closeReport = () => {
    setReport(null);
    session?.resume();
  };

  const blockStranger = async () => {
    const rouletteId = session?.partnerId;
    if (!session || !rouletteId || blocking.current) return;
    blocking.current = true;
    try {
      await api.block({ rouletteId });
      chat.notify.success(t("roulette.blocked_toast"));
      // The server ends the pair too; Next moves on at once if its message has not come yet.
      if (session.partnerId === rouletteId) session.next();
    } catch (error) {
      chat.notify.error(errorText(error, t("roulette.block_failed")));
    } finally {
      blocking.current = false;
    }
  };

  useEffect(() => {
    let live = true;
    api.countries().then(
      (answer) => live && setCountries(answer.countries),
      // Without the list the filter offers "Any country" only.
      (error: unknown) => console.error("Failed to load countries", error),
    );
    return () => {
      live = false;
    };
  }, [api]);

  const { state, localStream, remoteStream, connectionKind = null } = useSyncExternalStore(session?.subscribe ?? noSubscription, session?.getSnapshot ?? idle);
  const remoteVideo = useRef<HTMLVideoElement | null>(null);
  const started = state.status !== "disconnected" || state.starting;
  // The server rings nobody in roulette; a call that reached this tab just before Start is not
  // shown here either, so no ring tone reaches the stranger through the microphone (issue 18).
  useEffect(() => {
    store.rouletteActive.value = started;
    return () => {
      store.rouletteActive.value = false;
    };
  }, [started, store]);
  const blurNudity = store.me.value.blur_nudity !== false;
  const nudity = useNudityGuard(started, blurNudity, remoteVideo, remoteStream);

  return (
    <section className={`roulette${mobile ? " is-mobile" : ""}`} aria-labelledby="roulette-title" data-status={state.status}>
      <RouletteStyles />
      <div className="roulette-head">
        <h2 className="roulette-title" id="roulette-title">
          {t("roulette.title")}
        </h2>
        <span className={`roulette-pill is-${state.held ? "disconnected" : state.status}`}>{state.held ? t("roulette.pill_paused") : t(PILL[state.status])}</span>
      </div>
      <RouletteStage
        status={state.status}
        statusText={statusText(state)}
        partner={state.partner}
        localStream={localStream}
        remoteStream={remoteStream}
        onReport={reportStranger}
        onBlock={() => void blockStranger()}
        guard={blurNudity ? nudity.snapshot : undefined}
        onShowAnyway={nudity.showAnyway}
        onNext={() => session?.next()}
        videoRef={remoteVideo}
      />
      {state.status === "connected" && <ConnectionKindLabel kind={connectionKind} className="roulette-connection" />}
      {ipNotice && state.status === "disconnected" && (
        <p className="roulette-ip-notice" role="note">
          {ipNoticeText()}
        </p>
      )}
      <RouletteChat
        key={state.partner?.id ?? "none"}
        messages={state.messages}
        enabled={state.status === "connected"}
        onSend={(text) => session?.sendText(text) ?? false}
      />
      {state.error && (
        <p className="roulette-error" role="alert">
          {state.error}
        </p>
      )}
      <div className="roulette-bar">
        <RouletteFilters
          filters={state.filters}
          countries={countries}
          onChange={(filters) => session?.setFilters(filters)}
          suggest={suggest}
          spoken={store.me.value.languages ?? []}
        />
        <RouletteControls
          status={state.status}
          starting={state.starting}
          ready={session !== null}
          onStart={() => void start()}
          onNext={() => session?.next()}
          onStop={() => session?.stop()}
          keepInTouch={state.keepInTouch}
          onKeepInTouch={() => session?.keepInTouch()}
        />
      </div>
      {report && (
        <Suspense fallback={null}>
          <ReportDialog target={report} onClose={closeReport} />
        </Suspense>
      )}
    </section>
  );
}
