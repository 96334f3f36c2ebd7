// Without a relay (ICE_TRANSPORT_POLICY other than relay) a stranger's browser learns the user's
// IP address: Video Roulette says so once, before the first Start, and remembers that it did.

export const IP_NOTICE_TEXT =
  "Before you start: on this site video goes directly between browsers, so the stranger's browser can see your IP address, which can reveal roughly where you are.";

const KEY = "webchat.roulette.ipNoticeSeen";

export function ipNoticeSeen(): boolean {
  try {
    return localStorage.getItem(KEY) === "1";
  } catch {
    return false;
  }
}

export function markIpNoticeSeen(): void {
  try {
    localStorage.setItem(KEY, "1");
  } catch {
    // Private mode: the notice shows again next visit, which is no harm.
  }
}
