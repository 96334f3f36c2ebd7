// The policy headers of every HTML page (issue 9, finding 10). A page runs only the site's own
// script files: islands get their props from non-executed `<script type="application/json">`
// elements, so no inline script, nonce or hash is needed. The headers are added in one place
// (app.ts) to every text/html answer, the 404 page from onError included.
import type { Config } from "../../config.ts";

/** emoji-picker-react draws its default ("apple") emoji as images from this CDN. */
const EMOJI_IMAGES = "https://cdn.jsdelivr.net";

/**
 * A Host header as a browser sends it (name or [IPv6] literal, optional port). Anything else is
 * left out of the policy rather than let a request write its own directives.
 */
const HOST = /^(?:[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)*|\[[0-9A-Fa-f:.]+\])(?::\d{1,5})?$/;

/** Camera and microphone for calls and roulette on this site only; what the site never uses, off. */
export const PERMISSIONS_POLICY = [
  "camera=(self)",
  "microphone=(self)",
  "geolocation=()",
  "display-capture=()",
  "payment=()",
  "usb=()",
  "serial=()",
  "midi=()",
  "accelerometer=()",
  "gyroscope=()",
  "magnetometer=()",
].join(", ");

export function contentSecurityPolicy(config: Config, host: string | null): string {
  // Consented optional scripts (OPTIONAL_SCRIPTS) must load, and usually report back home.
  const optional = [...new Set(config.optionalScripts.map((s) => new URL(s.src).origin))];
  // 'self' covers the site's own ws(s) in current browsers; older Safari needs them named.
  const sockets = host !== null && HOST.test(host) ? [`ws://${host}`, `wss://${host}`] : [];
  const directives: [string, string[]][] = [
    ["default-src", ["'self'"]],
    ["script-src", ["'self'", ...optional]],
    // React writes style attributes and react-hot-toast a <style> element: style, never script.
    ["style-src", ["'self'", "'unsafe-inline'"]],
    ["img-src", ["'self'", "data:", "blob:", EMOJI_IMAGES, ...optional]],
    ["media-src", ["'self'", "blob:", "mediastream:"]],
    ["connect-src", ["'self'", ...sockets, ...optional]],
    ["object-src", ["'none'"]],
    ["base-uri", ["'none'"]],
    ["frame-ancestors", ["'none'"]],
    ["form-action", ["'self'"]],
  ];
  return directives.map(([name, sources]) => `${name} ${sources.join(" ")}`).join("; ");
}

/**
 * Adds the page policies to an HTML answer. Any other answer, and one that set a policy of its own
 * (uploaded files and evidence are sandboxed), keeps its headers.
 */
export function withPagePolicies(response: Response, config: Config, request: Request): Response {
  if (!response.headers.get("content-type")?.startsWith("text/html")) return response;
  if (response.headers.has("content-security-policy")) return response;
  const host = request.headers.get("host") ?? new URL(request.url).host;
  response.headers.set("content-security-policy", contentSecurityPolicy(config, host));
  response.headers.set("permissions-policy", PERMISSIONS_POLICY);
  return response;
}
