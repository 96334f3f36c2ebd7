import type { Config } from "../../config.ts";
import { SITE_NAME } from "../page-info.ts";

export const legalLinks = [
  { href: "/privacy", label: "Privacy Policy" },
  { href: "/terms", label: "Terms of User Agreement" },
  { href: "/cookies", label: "Cookies Policy" },
  { href: "/compliance", label: "18 U.S.C. 2257 Compliance" },
];

export function Footer({ config }: { config: Config }) {
  return (
    <footer className="site-footer">
      <div className="container footer-inner">
        <nav aria-label="Footer">
          <ul className="footer-links">
            <li>
              <a href="/">Home</a>
            </li>
            {legalLinks.map((link) => (
              <li key={link.href}>
                <a href={link.href}>{link.label}</a>
              </li>
            ))}
          </ul>
        </nav>
        <p className="footer-contact">
          Contact: <a href={`mailto:${config.contactEmail}`}>{config.contactEmail}</a>
          <span aria-hidden="true"> · </span>
          Help: <a href={`mailto:${config.helpEmail}`}>{config.helpEmail}</a>
        </p>
        <p className="footer-note">
          {SITE_NAME} is for adults aged 18 or older. Nudity and erotic content are prohibited. © {config.operatorName}
        </p>
      </div>
    </footer>
  );
}
