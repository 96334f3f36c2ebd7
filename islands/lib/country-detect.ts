// The visitor's country from GET /api/geo/country, for the pickers (spec sections 4 and 9): the
// detected one, or US, United States when detection fails. The fallback is a suggestion only:
// the register form sets a country only when one was detected (§4: "no country is set and the
// user picks one manually"), and Edit Profile offers it first in the list without choosing it.
// No imports: the landing page's script uses it too.

export interface DetectedCountry {
  code: string;
  name: string;
  /** False for the fallback: nothing was detected. */
  detected: boolean;
}

/** Spec section 9, "Default country fallback". */
export const FALLBACK_COUNTRY: DetectedCountry = { code: "US", name: "United States", detected: false };

interface GeoAnswer {
  success?: boolean;
  message?: string;
  data?: { detected?: boolean; countryCode?: string; countryName?: string };
}

/** Asks the server; any failure (no answer, not JSON, success false) is logged and gives the fallback. */
export async function detectCountry(fetcher: (path: string) => Promise<Response> = (path) => fetch(path)): Promise<DetectedCountry> {
  try {
    const answer = (await (await fetcher("/api/geo/country")).json()) as GeoAnswer;
    const code = answer.success ? answer.data?.countryCode : undefined;
    const name = answer.data?.countryName;
    if (code && name) return { code, name, detected: true };
    console.info(`Country detection: ${answer.message ?? "Country not detected"}`);
  } catch (error) {
    console.info("Country detection failed:", error);
  }
  return FALLBACK_COUNTRY;
}
