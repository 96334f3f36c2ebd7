// The cookie banner with JavaScript on, and the optional-script loader. The banner's buttons
// record the choice in place (the form posts to /consent without JavaScript). Scripts listed in
// #optional-scripts (config OPTIONAL_SCRIPTS, none by default) load only for accepted categories.
import "../legacy/fallbacks.ts";
import { markRan } from "../legacy/ran.ts";
import { CONSENT_COOKIE, CONSENT_MAX_AGE, formatConsent, parseConsent, readCookie, writeCookie, type Consent } from "./cookies.ts";

markRan("consent");

interface OptionalScript {
  src: string;
  category: keyof Consent;
}

const loaded = new Set<string>();

function loadOptionalScripts(consent: Consent): void {
  const list = document.getElementById("optional-scripts")?.textContent;
  if (!list) return;
  for (const script of JSON.parse(list) as OptionalScript[]) {
    if (!consent[script.category] || loaded.has(script.src)) continue;
    loaded.add(script.src);
    const tag = document.createElement("script");
    tag.async = true;
    tag.src = script.src;
    document.head.append(tag);
  }
}

function choiceOf(form: HTMLFormElement, choice: string | undefined): Consent | null {
  const ticked = (name: string) => form.querySelector<HTMLInputElement>(`input[name="${name}"]`)?.checked ?? false;
  if (choice === "accept") return { analytics: true, advertising: true };
  if (choice === "reject") return { analytics: false, advertising: false };
  if (choice === "custom") return { analytics: ticked("analytics"), advertising: ticked("advertising") };
  return null;
}

/** How much of the viewport's bottom the banner covers, for base.css (0 on the chat page, where it has its own row). */
function reserveRoom(banner: HTMLElement): void {
  const measure = () => {
    const room = getComputedStyle(banner).position === "fixed" ? Math.ceil(window.innerHeight - banner.getBoundingClientRect().top) : 0;
    document.documentElement.style.setProperty("--consent-height", `${Math.max(room, 0)}px`);
  };
  // No ResizeObserver before Firefox 69: the resize listener and the first measure below do.
  if (typeof ResizeObserver === "function") new ResizeObserver(measure).observe(banner);
  else measure();
  window.addEventListener("resize", measure);
}

/** The banner comes first in the tab order: answered, it hands the focus back to where it was, else to the main content. */
function trackFocusOutside(banner: HTMLElement): () => void {
  let last: HTMLElement | null = null;
  document.addEventListener("focusin", (event) => {
    const target = event.target;
    if (target instanceof HTMLElement && !banner.contains(target) && !target.matches(".skip-link")) last = target;
  });
  return () => {
    // checkVisibility is missing before Safari 17.4: there, a connected element is taken as is.
    if (last?.isConnected && (last.checkVisibility?.() ?? true)) {
      last.focus();
      return;
    }
    const main = document.getElementById("main");
    if (!main) return;
    if (!main.hasAttribute("tabindex")) main.tabIndex = -1;
    main.focus({ preventScroll: true });
  };
}

const banner = document.querySelector<HTMLElement>("[data-consent-banner]");
const bannerForm = banner?.querySelector<HTMLFormElement>("form");
if (banner && bannerForm) {
  reserveRoom(banner);
  const handBackFocus = trackFocusOutside(banner);
  bannerForm.addEventListener("submit", (event) => {
    const submitter = event.submitter instanceof HTMLButtonElement ? event.submitter.value : undefined;
    const consent = choiceOf(bannerForm, submitter);
    if (!consent) return;
    event.preventDefault();
    writeCookie(CONSENT_COOKIE, formatConsent(consent), CONSENT_MAX_AGE);
    const hadFocus = banner.contains(document.activeElement);
    banner.hidden = true;
    if (hadFocus) handBackFocus();
    loadOptionalScripts(consent);
  });
}

const stored = parseConsent(readCookie(CONSENT_COOKIE));
if (stored) loadOptionalScripts(stored);
