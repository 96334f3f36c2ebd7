// What makes the site an installable app (issue 26): the web app manifest, the service worker at
// the site's root (so its scope is every page) and the offline page it keeps. The icons and the
// worker come from the client build (scripts/build-pwa.ts).
import { Elysia } from "elysia";
import { existsSync } from "node:fs";
import { join } from "node:path";
import type { Config } from "../../config.ts";
import { notFound } from "../../http/errors.ts";
import { THEME_DEFAULT } from "../layout/Document.tsx";
import { OfflinePage } from "../offline/OfflinePage.tsx";
import { pageInfo, SITE_NAME } from "../page-info.ts";
import { htmlResponse } from "../render.tsx";
import { BUILD_DIR, BUILD_URL, readManifest } from "./manifest.ts";
import { OFFLINE_URL } from "../../../islands/sw/shared.ts";

export const WEB_MANIFEST_URL = "/manifest.webmanifest";

/** The installed app opens on the chat screen ("/"), white like every page but sign-in (spec). */
export function webManifest() {
  const icons = readManifest().icons ?? {};
  const icon = (name: string, size: number, purpose: "any" | "maskable") =>
    icons[name] ? [{ src: BUILD_URL + icons[name], sizes: `${size}x${size}`, type: "image/png", purpose }] : [];
  return {
    id: "/",
    name: SITE_NAME,
    short_name: SITE_NAME,
    description: "One-to-one chat, video calls and Video Roulette for adults (18+).",
    start_url: "/",
    scope: "/",
    display: "standalone",
    orientation: "any",
    background_color: THEME_DEFAULT,
    theme_color: THEME_DEFAULT,
    categories: ["social"],
    icons: [...icon("icon192", 192, "any"), ...icon("icon512", 512, "any"), ...icon("maskable512", 512, "maskable")],
  };
}

export function pwaRoutes(config: Config) {
  return new Elysia()
    .get(WEB_MANIFEST_URL, () =>
      new Response(JSON.stringify(webManifest()), {
        // Names hashed icons of this build: revalidated, never kept past a deploy.
        headers: { "content-type": "application/manifest+json; charset=utf-8", "cache-control": "no-cache", "x-content-type-options": "nosniff" },
      }),
    )
    .get("/sw.js", () => {
      const path = join(BUILD_DIR, "sw.js");
      if (!existsSync(path)) throw notFound("The client build has no service worker");
      // Checked on every navigation: a new build's worker is found at once (and then waits, sw.ts).
      return new Response(Bun.file(path), { headers: { "content-type": "text/javascript; charset=utf-8", "cache-control": "no-cache", "x-content-type-options": "nosniff" } });
    })
    .get(OFFLINE_URL, ({ request }) =>
      htmlResponse(<OfflinePage page={{ ...pageInfo(config, request, OFFLINE_URL), consent: { analytics: false, advertising: false } }} />),
    );
}
