// Which push endpoints the server will post to (issue 26). An endpoint is an address a browser
// chose, so it is untrusted: https only, on a known push service (or a host the operator added
// with PUSH_HOSTS), default port, no credentials. The address it resolves to is checked when
// sending (transport.ts), since a name can point anywhere.
export const KNOWN_PUSH_HOSTS: readonly string[] = [
  "fcm.googleapis.com",
  "updates.push.services.mozilla.com",
  "*.push.apple.com",
  "*.notify.windows.com",
];

export const MAX_ENDPOINT_LENGTH = 1024;

export interface Endpoint {
  url: URL;
  /** Named in PUSH_HOSTS: may resolve to a private address and use any port. */
  operatorHost: boolean;
}

const matches = (host: string, pattern: string) =>
  pattern.startsWith("*.") ? host.endsWith(pattern.slice(1)) && host.length > pattern.length - 1 : host === pattern;

/** The endpoint, or the reason it is refused (said to the client as is). */
export function checkEndpoint(raw: string, extraHosts: readonly string[]): Endpoint | string {
  if (raw.length > MAX_ENDPOINT_LENGTH) return `The endpoint is longer than ${MAX_ENDPOINT_LENGTH} characters`;
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return "The endpoint is not a URL";
  }
  if (url.protocol !== "https:") return "The endpoint must be an https URL";
  if (url.username !== "" || url.password !== "") return "The endpoint must not carry credentials";
  const host = url.hostname.toLowerCase();
  if (extraHosts.includes(host)) return { url, operatorHost: true };
  if (!KNOWN_PUSH_HOSTS.some((pattern) => matches(host, pattern))) return "The endpoint is not on a known push service";
  if (url.port !== "") return "The endpoint must use the default https port";
  return { url, operatorHost: false };
}
