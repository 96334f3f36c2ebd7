import { DEVICE_COOKIE } from "../../auth/device.ts";
import { ConsentForm } from "../layout/ConsentBanner.tsx";
import { SITE_NAME, type PageInfo } from "../page-info.ts";
import { LegalPage } from "./LegalPage.tsx";

/** The services the operator may switch on (OPTIONAL_SCRIPTS); each loads only with consent. */
const services = [
  { name: "Google Analytics", category: "analytics", purpose: "counts visits, pages viewed and the device type, in aggregate" },
  { name: "Google AdSense", category: "advertising", purpose: "shows ads and measures how often they are seen and clicked" },
  { name: "Yandex Metrica", category: "analytics", purpose: "a second analytics service: counts visits and measures how pages are used" },
];

export function CookiesPage({ page }: { page: PageInfo }) {
  const enabled = page.config.optionalScripts;
  const choice = page.consent;
  return (
    <LegalPage page={page} title="Cookies Policy" description={`The cookies and browser storage ${SITE_NAME} uses, and how to choose which ones you allow.`}>
      <p>
        Cookies are small files a website keeps in your browser. This page lists the ones {SITE_NAME} uses, what they are for, and how you
        choose which of them you allow.
      </p>

      <h2>Necessary cookies</h2>
      <p>These are always on, because the site does not work without them. They are never used to track you.</p>
      <ul>
        <li>
          <code>sid</code>: keeps you signed in. It is HttpOnly (scripts cannot read it) and lasts one year or until you log out; the
          session behind it ends sooner if you stay away for {page.config.sessionTtlMs / 86_400_000} days.
        </li>
        <li>
          <code>{DEVICE_COOKIE}</code>: a random id for this browser (HttpOnly, two years). It lets a browser you have signed in from get past
          failed-login limits that strangers cause, and keeps a ban on an account from being dodged with a fresh one.
        </li>
        <li>
          <code>consent</code>: remembers your cookie choice for one year.
        </li>
        <li>
          <code>flash</code>: shows the “signed in” message once after you log in; it expires after one minute.
        </li>
      </ul>
      <p>
        The chat app also keeps your user id, where you left off and your recently used emoji in your browser's local storage (never your
        session token); see the{" "}
        <a href="/privacy">Privacy Policy</a>.
      </p>

      <h2>Optional cookies</h2>
      <p>Analytics and advertising cookies are set only if you allow their category. These are the services we may use:</p>
      <table className="legal-table">
        <thead>
          <tr>
            <th scope="col">Service</th>
            <th scope="col">Category</th>
            <th scope="col">What it does</th>
          </tr>
        </thead>
        <tbody>
          {services.map((s) => (
            <tr key={s.name}>
              <td>{s.name}</td>
              <td>{s.category === "analytics" ? "Analytics" : "Advertising"}</td>
              <td>{s.purpose}</td>
            </tr>
          ))}
        </tbody>
      </table>
      <p>
        {enabled.length === 0
          ? "At the moment none of them is switched on, so no optional cookie is set whatever you choose."
          : `Switched on at the moment: ${enabled.map((s) => `${s.name} (${s.category})`).join(", ")}.`}
      </p>

      <h2>The cookie banner</h2>
      <p>
        On your first visit a banner asks for your choice, and nothing optional loads until you make it. <strong>Accept all</strong> allows
        analytics and advertising, <strong>Reject non-essential</strong> keeps only the necessary cookies, and <strong>Customize</strong> lets
        you tick each category. The banner then stays away for a year. You can change your choice here at any time.
      </p>

      <h2 id="your-choice">Your choice</h2>
      <p>
        {choice === null
          ? "You have not made a choice yet."
          : `Now allowed: necessary cookies${choice.analytics ? ", analytics" : ""}${choice.advertising ? ", advertising" : ""}.`}
      </p>
      <div className="consent-inline">
        <ConsentForm page={page} inline />
      </div>
    </LegalPage>
  );
}
