// The Video Roulette screen in the Video Chat tab (spec sections 2 and 4), loaded lazily with the
// tab. One RouletteSession lives as long as the screen: leaving the tab disposes of it, which
// stops the camera, closes the connection and leaves the queue.
import { useEffect, useState, useSyncExternalStore } from "react";
import { useVideoSettings } from "../calls/video-context.ts";
import { useChat } from "../chat/context.ts";
import { browserGetUserMedia, mediaSupported } from "../media/constraints.ts";
import type { Country } from "../lib/types.ts";
import { RouletteSession } from "./roulette-session.ts";
import { initialRouletteState, statusText, type RouletteSnapshot } from "./roulette-state.ts";
import RouletteControls from "./RouletteControls.tsx";
import RouletteFilters from "./RouletteFilters.tsx";
import RouletteStage from "./RouletteStage.tsx";
import RouletteStyles from "./RouletteStyles.tsx";
import { browserRtc } from "./rtc.ts";
import { useIsMobile } from "./useIsMobile.ts";

const IDLE: RouletteSnapshot = { state: initialRouletteState(), localStream: null, remoteStream: null };
const noSubscription = () => () => {};
const idle = () => IDLE;

const PILL = { disconnected: "Offline", searching: "Searching", connecting: "Connecting", connected: "Live" } as const;

export default function Roulette() {
  const { api, store } = useChat();
  const { socket, ice } = useVideoSettings();
  const mobile = useIsMobile();
  const [session, setSession] = useState<RouletteSession | null>(null);
  const [countries, setCountries] = useState<readonly Country[]>([]);

  useEffect(() => {
    if (!socket) return;
    const created = new RouletteSession({
      socket,
      userId: store.me.value.id,
      ice,
      getUserMedia: mediaSupported() ? browserGetUserMedia() : null,
      createRtc: browserRtc,
    });
    setSession(created);
    return () => created.dispose();
  }, [socket, ice, store]);

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

  const { state, localStream, remoteStream } = useSyncExternalStore(session?.subscribe ?? noSubscription, session?.getSnapshot ?? idle);

  return (
    <section className={`roulette${mobile ? " is-mobile" : ""}`} aria-labelledby="roulette-title" data-status={state.status}>
      <RouletteStyles />
      <div className="roulette-head">
        <h2 className="roulette-title" id="roulette-title">
          Video Roulette
        </h2>
        <span className={`roulette-pill is-${state.status}`}>{PILL[state.status]}</span>
      </div>
      <RouletteStage
        status={state.status}
        statusText={statusText(state)}
        partner={state.partner}
        localStream={localStream}
        remoteStream={remoteStream}
      />
      {state.error && (
        <p className="roulette-error" role="alert">
          {state.error}
        </p>
      )}
      <div className="roulette-bar">
        <RouletteFilters filters={state.filters} countries={countries} onChange={(filters) => session?.setFilters(filters)} />
        <RouletteControls
          status={state.status}
          starting={state.starting}
          ready={session !== null}
          onStart={() => void session?.start()}
          onNext={() => session?.next()}
          onStop={() => session?.stop()}
        />
      </div>
    </section>
  );
}
