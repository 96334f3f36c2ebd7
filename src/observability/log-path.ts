// The path as logged: no query string (tokens travel there, as on /ws?token=), and any long
// opaque segment masked, because some paths carry a secret (/appeal/<token>) and an unmatched
// path may carry whatever a client typed.
const LONG_SEGMENT = /[^/]{20,}/g;
const MAX_LOGGED_PATH = 200;

export function pathForLog(url: string): string {
  const start = url.indexOf("/", url.indexOf("//") + 2);
  if (start < 0) return "/";
  const end = url.search(/[?#]/);
  const path = url.slice(start, end < 0 ? undefined : end);
  return path.replace(LONG_SEGMENT, ":masked").slice(0, MAX_LOGGED_PATH);
}
