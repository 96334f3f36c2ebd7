// Which kind of connection carries a call or a roulette pairing, read from the connection's own
// statistics (getStats), never from settings: the selected candidate pair's local candidate is
// `relay` when the partner's browser sees only the relay's address, not ours.

import { t } from "../i18n.ts";

export type ConnectionKind = "relayed" | "direct";

/** Read when shown, so each is in the page's language. */
export const CONNECTION_KIND_TEXT: Readonly<Record<ConnectionKind, string>> = {
  get relayed() {
    return t("call.relayed");
  },
  get direct() {
    return t("call.direct");
  },
};

/**
 * Chromium hangs on an unusable relay (a wrong or expired credential: `icecandidateerror` 401,
 * no candidate, the state stays `new`), so connections set their own limit to report failure.
 */
export const CONNECT_TIMEOUT_MS = 20_000;

type Stat = Record<string, unknown> & { id: string; type: string };

/** The kind from one getStats() report, or null while no candidate pair is selected yet. */
export function kindFromStats(stats: Iterable<Stat>): ConnectionKind | null {
  const byId = new Map<string, Stat>();
  for (const stat of stats) byId.set(stat.id, stat);
  let pair: Stat | undefined;
  for (const stat of byId.values()) {
    if (stat.type === "transport" && typeof stat.selectedCandidatePairId === "string") pair = byId.get(stat.selectedCandidatePairId);
  }
  // Firefox has no selectedCandidatePairId: its selected pair says so itself.
  pair ??= [...byId.values()].find((s) => s.type === "candidate-pair" && (s.selected === true || (s.nominated === true && s.state === "succeeded")));
  const local = pair && typeof pair.localCandidateId === "string" ? byId.get(pair.localCandidateId) : undefined;
  if (!local) return null;
  return local.candidateType === "relay" ? "relayed" : "direct";
}

export interface StatsSource {
  getStats(): Promise<RTCStatsReport>;
}

/**
 * Reads the kind every `everyMs` and reports each change (the selected pair may change when the
 * network does). Returns the way to stop.
 */
export function watchConnectionKind(pc: StatsSource, onKind: (kind: ConnectionKind) => void, everyMs = 1000): () => void {
  let last: ConnectionKind | null = null;
  let stopped = false;
  const read = async () => {
    try {
      const report = await pc.getStats();
      const kind = kindFromStats([...report.values()] as Stat[]);
      if (!stopped && kind && kind !== last) {
        last = kind;
        onKind(kind);
      }
    } catch {
      // A closed connection has no statistics; the owner stops watching it.
    }
  };
  void read();
  const timer = setInterval(read, everyMs);
  return () => {
    stopped = true;
    clearInterval(timer);
  };
}

/** Logs a relay's refusals (401: a wrong or expired credential), which Chromium reports nowhere else. */
export function logCandidateErrors(pc: Pick<RTCPeerConnection, "addEventListener">, label: string): void {
  pc.addEventListener("icecandidateerror", (event) => {
    const e = event as RTCPeerConnectionIceErrorEvent;
    console.warn(`${label}: ICE server error ${e.errorCode} ${e.errorText} (${e.url})`);
  });
}
