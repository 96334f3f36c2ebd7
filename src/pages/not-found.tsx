// The HTML 404 for unknown pages. error-response.ts has no app context, so pageRoutes records the
// config for each request it sees (onRequest runs for every request of the app); a request the
// pages module never saw, and anything under /api, keeps the JSON 404.
import type { Config } from "../config.ts";
import { NotFoundPage } from "./NotFoundPage.tsx";
import { pageInfo } from "./page-info.ts";
import { htmlResponse } from "./render.tsx";

const configOfRequest = new WeakMap<Request, Config>();

export const rememberPageConfig = (request: Request, config: Config): void => {
  configOfRequest.set(request, config);
};

export function notFoundPage(request: Request): Response | null {
  const config = configOfRequest.get(request);
  const path = new URL(request.url).pathname;
  if (!config || (request.method !== "GET" && request.method !== "HEAD") || path === "/api" || path.startsWith("/api/")) return null;
  return htmlResponse(<NotFoundPage page={pageInfo(config, request)} />, { status: 404 });
}
