// Without a relay (ICE_TRANSPORT_POLICY other than relay) a stranger's browser learns the user's
// IP address: Video Roulette says so once, before the first Start, and remembers that it did.

import { t } from "../i18n.ts";
export const ipNoticeText = (): string => t("roulette.ip_notice");

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
