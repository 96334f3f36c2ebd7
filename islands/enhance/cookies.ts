// The two cookies the pages share between server and browser, in one format for both sides:
// `consent` (the cookie banner's choice) and `flash` (which success toast the chat screen shows
// once after signing in). Plain data, no secrets: the server imports this file too.
export const CONSENT_COOKIE = "consent";
export const CONSENT_MAX_AGE = 365 * 24 * 60 * 60;
export const optionalCategories = ["analytics", "advertising"] as const;
export type OptionalCategory = (typeof optionalCategories)[number];
export type Consent = Record<OptionalCategory, boolean>;

/** "necessary" plus the accepted optional categories, joined with dots: "necessary.analytics". */
export const formatConsent = (consent: Consent): string => ["necessary", ...optionalCategories.filter((c) => consent[c])].join(".");

export function parseConsent(value: string | null | undefined): Consent | null {
  const parts = (value ?? "").split(".");
  if (parts[0] !== "necessary") return null;
  return { analytics: parts.includes("analytics"), advertising: parts.includes("advertising") };
}

export const FLASH_COOKIE = "flash";
export const flashKinds = ["login", "register", "guest"] as const;
export type FlashKind = (typeof flashKinds)[number];
export const isFlashKind = (value: unknown): value is FlashKind => flashKinds.some((k) => k === value);

/** Browser side: reads one cookie of document.cookie. */
export function readCookie(name: string): string | null {
  for (const part of document.cookie.split(";")) {
    const eq = part.indexOf("=");
    if (eq > 0 && part.slice(0, eq).trim() === name) return decodeURIComponent(part.slice(eq + 1).trim());
  }
  return null;
}

/** Browser side: a first-party, SameSite=Lax cookie for the whole site. */
export function writeCookie(name: string, value: string, maxAgeSeconds: number): void {
  const secure = location.protocol === "https:" ? "; Secure" : "";
  document.cookie = `${name}=${encodeURIComponent(value)}; Path=/; Max-Age=${maxAgeSeconds}; SameSite=Lax${secure}`;
}
