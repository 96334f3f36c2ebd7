import type { OwnUser } from "../src/realtime/protocol.ts";
import type { IceServer } from "../src/config.ts";
import type { Strings } from "../src/i18n/format.ts";
import type { Locale } from "../src/i18n/locales.ts";
/** Everything the chat screen needs from the server, as plain serialisable data. */
export interface ChatAppProps {
  token: string;            // the session token, kept in the island's memory only (never in storage)
  user: OwnUser;
  flash: string | null;     // a success toast to show once
  ice: { iceServers: IceServer[]; iceTransportPolicy: "all" | "relay" };
  /** The page's language and the island's strings in it only (src/i18n/catalogue.ts islandStrings). */
  i18n?: { locale: Locale; strings: Strings };
}
