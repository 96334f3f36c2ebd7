// The frame of every console page: the site header with the console's own links, the one-line
// note of what was just done (or refused), then the page.
import type { ReactNode } from "react";
import { Document } from "../../layout/Document.tsx";
import { Header } from "../../layout/Header.tsx";
import type { ModView } from "../view.ts";

const links = [
  { href: "/mod", label: "Home" },
  { href: "/mod/reports", label: "Reports" },
  { href: "/mod/users", label: "Users" },
  { href: "/mod/appeals", label: "Appeals" },
  { href: "/mod/audit", label: "Audit log" },
];

export function ModPage({ view, title, children }: { view: ModView; title: string; children: ReactNode }) {
  const here = view.page.path;
  return (
    <Document page={view.page} title={`${title} · Moderation`} styles={["base", "site", "mod"]} bodyClass="page-mod" noIndex>
      <Header>
        <nav className="header-nav" aria-label="Moderation">
          {links.map((link) => (
            <a key={link.href} href={link.href} aria-current={here === link.href || (link.href !== "/mod" && here.startsWith(`${link.href}/`)) ? "page" : undefined}>
              {link.label}
            </a>
          ))}
          <a href="/">Back to chat</a>
        </nav>
      </Header>
      <main id="main" className="container mod">
        <p className="mod-who">
          Signed in as <strong>{view.viewer.username}</strong> ({view.viewer.role})
        </p>
        {view.flash ? (
          <p className="mod-flash" role="status">
            {view.flash}
          </p>
        ) : null}
        {view.error ? (
          <p className="mod-error" role="alert">
            {view.error}
          </p>
        ) : null}
        <h1>{title}</h1>
        {children}
      </main>
    </Document>
  );
}
