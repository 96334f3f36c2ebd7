// The language a socket's refusals are written in: chosen at the upgrade (or the polling
// session's open) the way a page's is (`lang` cookie, the account's locale, Accept-Language), so
// an edit, a deletion or a reaction refused over the socket reads in the chat page's language.
// Only non-English sockets are remembered (a WeakMap entry each, gone with the socket).
import { DEFAULT_LOCALE, type Locale } from "../i18n/locales.ts";
import type { ClientSocket } from "./socket.ts";

const locales = new WeakMap<ClientSocket, Locale>();

export function setSocketLocale(socket: ClientSocket, locale: Locale): void {
  if (locale !== DEFAULT_LOCALE) locales.set(socket, locale);
}

export const socketLocale = (socket: ClientSocket): Locale => locales.get(socket) ?? DEFAULT_LOCALE;
