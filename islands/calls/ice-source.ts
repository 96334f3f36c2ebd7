// Fresh ICE settings before every connection (API.md "IP privacy: TURN relay"): TURN credentials
// live hours at most, and a page may stay open for days, so they never come from page props.
import type { IceConfig } from "./peer-config.ts";

/** Resolves to the ICE settings for the connection about to be made. */
export type IceSource = () => Promise<IceConfig>;

export interface IceAnswer extends IceConfig {
  expiresAt: string | null;
}

/**
 * GET /api/ice through `fetchAnswer`; when it fails (offline, rate limited) the page's settings
 * stand in. Those hold no TURN credential, so with the policy `relay` the connection then cannot
 * start and the caller's own timeout reports it, rather than falling back to a direct one.
 */
export function iceSource(fetchAnswer: () => Promise<IceAnswer>, fallback: IceConfig): IceSource {
  return async () => {
    try {
      const answer = await fetchAnswer();
      return { iceServers: answer.iceServers, iceTransportPolicy: answer.iceTransportPolicy };
    } catch (error) {
      console.error("Could not fetch fresh ICE settings; using the page's", error);
      return fallback;
    }
  };
}
