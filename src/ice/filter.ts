// Defence in depth for `ICE_TRANSPORT_POLICY=relay` (API.md "IP privacy: TURN relay"): what the
// server passes from one browser to the other never carries an address but the relay's. A
// browser that ignores its own policy (modified, or an old page) may offer host and srflx
// candidates, and a relay candidate's raddr/rport is the sender's real address: both are cut here,
// so neither side can leak the other's address nor push its own through us.

/** The candidate type of an ICE candidate line (`candidate:...` or `a=candidate:...`), or null. */
export function candidateType(line: string): string | null {
  const match = /\styp\s+(\S+)/.exec(line);
  return match ? match[1]!.toLowerCase() : null;
}

/** A relay candidate line with its related address blanked; null for any other candidate. */
export function relayOnlyCandidate(line: string): string | null {
  if (candidateType(line) !== "relay") return null;
  return line.replace(/(\sraddr\s+)\S+/i, (_, key: string) => `${key}0.0.0.0`).replace(/(\srport\s+)\S+/i, (_, key: string) => `${key}0`);
}

/**
 * The SDP with every `a=candidate` line that is not `typ relay` removed, the relay ones' related
 * addresses blanked, and `c=` / `a=rtcp:` addresses set to 0.0.0.0 (Chromium fills them from the
 * default candidate, which may be a host address). `a=remote-candidates` (ICE-lite) goes too.
 */
export function relayOnlySdp(sdp: string): string {
  const eol = sdp.includes("\r\n") ? "\r\n" : "\n";
  const out: string[] = [];
  for (const line of sdp.split(/\r?\n/)) {
    if (line.startsWith("a=candidate:")) {
      const kept = relayOnlyCandidate(line);
      if (kept !== null) out.push(kept);
    } else if (line.startsWith("a=remote-candidates")) {
      continue;
    } else if (line.startsWith("c=")) {
      out.push(/^c=IN IP6 /.test(line) ? "c=IN IP6 ::" : "c=IN IP4 0.0.0.0");
    } else if (line.startsWith("a=rtcp:")) {
      out.push(line.replace(/^(a=rtcp:\d+)\s.*$/, "$1 IN IP4 0.0.0.0"));
    } else out.push(line);
  }
  return out.join(eol);
}

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === "object" && value !== null && !Array.isArray(value);

/**
 * An RTCSessionDescriptionInit as it may be passed on under relay: only `type` and the filtered
 * `sdp`, rebuilt field by field so no other member can carry an address. Null when it is not one.
 */
export function relayOnlyDescription(value: unknown): { type: string; sdp: string } | null {
  if (!isRecord(value) || typeof value.type !== "string" || typeof value.sdp !== "string") return null;
  return { type: value.type, sdp: relayOnlySdp(value.sdp) };
}

/**
 * An RTCIceCandidateInit as it may be passed on under relay, rebuilt from its known members;
 * null when it is not a relay candidate. The empty candidate (end of candidates) carries no
 * address and passes.
 */
export function relayOnlyIceCandidate(value: unknown): Record<string, unknown> | null {
  if (!isRecord(value) || typeof value.candidate !== "string") return null;
  const candidate = value.candidate === "" ? "" : relayOnlyCandidate(value.candidate);
  if (candidate === null) return null;
  const out: Record<string, unknown> = { candidate };
  if (typeof value.sdpMid === "string" || value.sdpMid === null) out.sdpMid = value.sdpMid;
  if (typeof value.sdpMLineIndex === "number" || value.sdpMLineIndex === null) out.sdpMLineIndex = value.sdpMLineIndex;
  if (typeof value.usernameFragment === "string" || value.usernameFragment === null) out.usernameFragment = value.usernameFragment;
  return out;
}

/**
 * A PeerJS OFFER / ANSWER / CANDIDATE payload under relay: its description or candidate filtered
 * as above, every other member kept (connectionId, type, metadata: the sender's own words, never
 * read by the ICE agent). Null when the message must not be passed on.
 */
export function relayOnlyPeerPayload(kind: "OFFER" | "ANSWER" | "CANDIDATE", payload: unknown): Record<string, unknown> | null {
  if (!isRecord(payload)) return null;
  if (kind === "CANDIDATE") {
    const candidate = relayOnlyIceCandidate(payload.candidate);
    return candidate === null ? null : { ...payload, candidate };
  }
  const sdp = relayOnlyDescription(payload.sdp);
  return sdp === null ? null : { ...payload, sdp };
}
