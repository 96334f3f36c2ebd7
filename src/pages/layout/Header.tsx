import type { ReactNode } from "react";
import { useT } from "../../i18n/react.tsx";
import { SITE_NAME } from "../page-info.ts";

export function Logo() {
  const t = useT();
  return (
    <a className="logo" href="/" aria-label={t("page.logo_home", { site: SITE_NAME })}>
      <svg className="logo-mark" viewBox="0 0 32 32" width="32" height="32" aria-hidden="true">
        <rect width="32" height="32" rx="9" fill="#7c3aed" />
        <path d="M9 10.5h14a2.5 2.5 0 0 1 2.5 2.5v6.5A2.5 2.5 0 0 1 23 22h-7l-5 4v-4H9a2.5 2.5 0 0 1-2.5-2.5V13A2.5 2.5 0 0 1 9 10.5z" fill="#fff" />
        <circle cx="12" cy="16.3" r="1.4" fill="#7c3aed" />
        <circle cx="16" cy="16.3" r="1.4" fill="#7c3aed" />
        <circle cx="20" cy="16.3" r="1.4" fill="#7c3aed" />
      </svg>
      <span className="logo-text">{SITE_NAME}</span>
    </a>
  );
}

export function Header({ children }: { children?: ReactNode }) {
  const t = useT();
  return (
    <header className="site-header">
      <div className="container header-inner">
        <Logo />
        <span className="adult-badge" title={t("page.adults_only_title")}>
          18+
        </span>
        {children}
      </div>
    </header>
  );
}
