// The HTML document around every page: head with hashed CSS and scripts from the build manifest,
// the theme colour, the cookie banner until a choice is made, and the optional-script list the
// consent script loads from (only for categories the visitor accepted).
import type { ReactNode } from "react";
import { readManifest, type Manifest, type ScriptAsset } from "../assets/manifest.ts";
import { SITE_NAME, type PageInfo } from "../page-info.ts";
import { ConsentBanner } from "./ConsentBanner.tsx";
import { I18nProvider } from "../../i18n/react.tsx";
import { dirOf, intlTag } from "../../i18n/locales.ts";

export const THEME_AUTH = "#7c3aed";
export const THEME_DEFAULT = "#ffffff";

interface DocumentProps {
  page: PageInfo;
  title: string;
  description?: string;
  themeColor?: string;
  /** Stylesheets from the manifest: "base" always, "site" for content pages. */
  styles: string[];
  /** Page scripts from the manifest besides "consent" ("auth", "client"). */
  scripts?: string[];
  /** Islands on this page: their chunks are preloaded so hydration does not wait a round trip. */
  islands?: string[];
  bodyClass?: string;
  noIndex?: boolean;
  children: ReactNode;
}

export function Document(props: DocumentProps) {
  const { page } = props;
  const manifest = readManifest();
  const needsConsentScript = page.consent === null || page.config.optionalScripts.length > 0;
  const scriptNames = [...(props.scripts ?? []), ...(needsConsentScript ? ["consent"] : [])].filter((name) => manifest.scripts[name] !== undefined);
  const scripts = scriptNames.map((name) => manifest.scripts[name]).filter((s): s is ScriptAsset => s !== undefined);
  const legacy = legacyLoader(manifest, scriptNames);
  const islands = (props.islands ?? []).map((name) => manifest.islands[name]).filter((s): s is ScriptAsset => s !== undefined);
  const css = unique([...props.styles.map((name) => manifest.styles[name]), ...scripts.flatMap((s) => s.css), ...islands.flatMap((s) => s.css)]);
  const preload = unique([...scripts.flatMap((s) => s.preload), ...islands.flatMap((s) => [s.file, ...s.preload])]);

  return (
    <I18nProvider value={{ locale: page.locale, t: page.t }}>
    <html lang={intlTag(page.locale)} dir={dirOf(page.locale)}>
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <title>{props.title === SITE_NAME ? SITE_NAME : `${props.title} | ${SITE_NAME}`}</title>
        {props.description ? <meta name="description" content={props.description} /> : null}
        <meta name="theme-color" content={props.themeColor ?? THEME_DEFAULT} />
        <meta name="color-scheme" content="light" />
        {props.noIndex ? <meta name="robots" content="noindex" /> : null}
        <link rel="icon" href="/favicon.svg" type="image/svg+xml" />
        <link rel="manifest" href="/manifest.webmanifest" />
        {manifest.icons?.apple180 ? <link rel="apple-touch-icon" href={`/build/${manifest.icons.apple180}`} /> : null}
        {css.map((href) => (
          <link key={href} rel="stylesheet" href={href} />
        ))}
        {preload.map((href) => (
          <link key={href} rel="modulepreload" href={href} />
        ))}
        {scripts.map((s) => (
          <script key={s.file} type="module" src={s.file} />
        ))}
        {/* After the module scripts, deferred like them, so it runs once they ran or failed. */}
        {legacy ? <script defer src={legacy.boot} data-legacy={legacy.list} /> : null}
      </head>
      <body className={props.bodyClass}>
        <a className="skip-link" href="#main">
          {page.t("page.skip")}
        </a>
        {/* First in the tab order, so nobody meets it last; CSS shows it at the bottom. */}
        {page.consent === null ? <ConsentBanner page={page} /> : null}
        {props.children}
        {page.config.optionalScripts.length > 0 ? (
          <script
            type="application/json"
            id="optional-scripts"
            dangerouslySetInnerHTML={{ __html: jsonForScript(page.config.optionalScripts.map(({ src, category }) => ({ src, category }))) }}
          />
        ) : null}
      </body>
    </html>
    </I18nProvider>
  );
}

/** The classic-build loader for this page's scripts (islands/legacy/boot.ts), when the build has one. */
function legacyLoader(manifest: Manifest, names: string[]): { boot: string; list: string } | null {
  if (!manifest.legacy) return null;
  const list = names.flatMap((name) => {
    const url = manifest.legacy?.scripts[name];
    return url ? [[name, url]] : [];
  });
  return list.length > 0 ? { boot: manifest.legacy.boot, list: JSON.stringify(list) } : null;
}

const unique = (items: (string | undefined)[]) => [...new Set(items.filter((s): s is string => Boolean(s)))];

/** JSON safe inside <script>: no "</script>", no "<!--", no line separators JavaScript chokes on. */
export const jsonForScript = (value: unknown): string =>
  JSON.stringify(value).replace(/</g, "\\u003c").replace(/\u2028/g, "\\u2028").replace(/\u2029/g, "\\u2029");
