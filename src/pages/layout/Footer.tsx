import type { Config } from "../../config.ts";
import type { T } from "../../i18n/catalogue.ts";
import { useLocale, useT } from "../../i18n/react.tsx";
import { LOCALES, LOCALE_NAMES, intlTag } from "../../i18n/locales.ts";
import { SITE_NAME } from "../page-info.ts";

export const legalLinks = (t: T) => [
  { href: "/privacy", label: t("footer.privacy") },
  { href: "/terms", label: t("footer.terms"), short: t("legal.nav_terms") },
  { href: "/cookies", label: t("footer.cookies") },
  { href: "/compliance", label: t("footer.compliance"), short: t("legal.nav_compliance") },
];

/**
 * The language switcher: a plain GET form to /lang (src/i18n/routes.ts sets the `lang` cookie and
 * sends the visitor back), so it works without JavaScript; each language is named in itself.
 */
export function LanguageForm({ path }: { path: string }) {
  const t = useT();
  const locale = useLocale();
  return (
    <form method="get" action="/lang" className="lang-form" data-lang-form="">
      <input type="hidden" name="back" value={path} />
      <label htmlFor="footer-lang">{t("lang.label")}</label>
      <select id="footer-lang" name="to" defaultValue={locale}>
        {LOCALES.map((l) => (
          <option key={l} value={l} lang={intlTag(l)}>
            {LOCALE_NAMES[l]}
          </option>
        ))}
      </select>
      <button className="btn btn-secondary" type="submit">
        {t("lang.apply")}
      </button>
    </form>
  );
}

export function Footer({ config, path = "/" }: { config: Config; path?: string }) {
  const t = useT();
  return (
    <footer className="site-footer">
      <div className="container footer-inner">
        <nav aria-label={t("footer.nav")}>
          <ul className="footer-links">
            <li>
              <a href="/">{t("footer.home")}</a>
            </li>
            {legalLinks(t).map((link) => (
              <li key={link.href}>
                <a href={link.href}>{link.label}</a>
              </li>
            ))}
          </ul>
        </nav>
        <LanguageForm path={path} />
        <p className="footer-contact">
          {`${t("footer.contact")} `}<a href={`mailto:${config.contactEmail}`}>{config.contactEmail}</a>
          <span aria-hidden="true"> · </span>
          {`${t("footer.help")} `}<a href={`mailto:${config.helpEmail}`}>{config.helpEmail}</a>
        </p>
        <p className="footer-note">{t("footer.note", { site: SITE_NAME, operator: config.operatorName })}</p>
      </div>
    </footer>
  );
}
