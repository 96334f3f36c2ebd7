// What each auth form needs before its button enables (spec section 5), the live messages shown
// as people type (the same texts as the server's), and where each form posts with JavaScript on.
import { displayNameProblem, normaliseName, normaliseUsername, usernameProblem } from "../../src/users/names/rules.ts";
import { INTEREST_SEPARATORS, isInterest, MAX_INTERESTS, MAX_LANGUAGES, normaliseInterest } from "../../src/users/values.ts";
import { t, translateServerText } from "../i18n.ts";

export type AuthKind = "login" | "register" | "guest";

export type Values = Record<string, string>;

interface Rules {
  endpoint: string;
  /** The spec's fallback when the server gives no text (section 8). */
  readonly fallback: string;
  required: string[];
  ready(values: Values): boolean;
  /** Messages for fields that are wrong (filled but invalid, or the 18+ box unticked); shown once a field was touched. */
  check(values: Values): Record<string, string>;
  payload(values: Values): Record<string, unknown>;
}

const filled = (values: Values, names: string[]) => names.every((n) => (values[n] ?? "").trim() !== "");

/** The register form's optional lists (issue 24): interests typed as "music, travel", languages as "en,de". */
const listOf = (value: string | undefined, separators: RegExp): string[] =>
  (value ?? "")
    .split(separators)
    .map((v) => v.trim())
    .filter(Boolean);
const interestsOf = (v: Values) => listOf(v.interests, INTEREST_SEPARATORS);
const languagesOf = (v: Values) => listOf(v.languages, /,/);

/** The server's rules for the lists, said as it says them (API.md "Interests and languages"). */
function listProblems(v: Values): Record<string, string> {
  const errors: Record<string, string> = {};
  const interests = interestsOf(v).map(normaliseInterest);
  // A browser that cannot read the rule's Unicode classes (scripts/client-targets.ts) leaves it to the server.
  if (isInterest("ab") && !interests.every(isInterest)) errors.interests = t("error.interest_rule");
  else if (new Set(interests).size > MAX_INTERESTS) errors.interests = t("error.interests_max", { count: MAX_INTERESTS });
  if (new Set(languagesOf(v)).size > MAX_LANGUAGES) errors.languages = t("error.languages_max", { count: MAX_LANGUAGES });
  return errors;
}

const registerRequired = ["username", "email", "password", "confirmPassword", "name", "gender", "age", "country_code", "adult"];

/** The 18+ box: a ticked checkbox sends "on"; its message is the server's `fields.adult`. */
const isAdult = (values: Values) => values.adult === "on";
const adultProblem = (values: Values): Record<string, string> => (isAdult(values) ? {} : { adult: t("error.adult") });

export const rules: Record<AuthKind, Rules> = {
  login: {
    endpoint: "/api/auth/login",
    get fallback() {
      return t("auth.login_failed");
    },
    required: ["username", "password"],
    ready: (v) => filled(v, ["username", "password"]),
    check: () => ({}),
    payload: (v) => ({ username: v.username?.trim(), password: v.password }),
  },
  register: {
    endpoint: "/api/auth/register",
    get fallback() {
      return t("auth.register_failed");
    },
    required: registerRequired,
    ready: (v) => filled(v, registerRequired) && v.password === v.confirmPassword,
    check(v) {
      const errors: Record<string, string> = {};
      const username = v.username ? usernameProblem(normaliseUsername(v.username)) : null;
      if (username) errors.username = translateServerText(username);
      if (v.email && !/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(v.email.trim())) errors.email = t("error.valid_email");
      if (v.password && (v.password.length < 8 || v.password.length > 128)) errors.password = t("error.password_length");
      if (v.confirmPassword && v.password !== v.confirmPassword) errors.confirmPassword = t("error.passwords_differ");
      const name = v.name !== undefined && v.name !== "" ? displayNameProblem(normaliseName(v.name)) : null;
      if (name) errors.name = translateServerText(name);
      return { ...errors, ...listProblems(v), ...adultProblem(v) };
    },
    payload: (v) => ({
      username: v.username,
      email: v.email?.trim(),
      password: v.password,
      name: v.name?.trim(),
      gender: v.gender,
      age: Number(v.age),
      country_code: v.country_code,
      country_name: v.country_name,
      interests: interestsOf(v),
      languages: languagesOf(v),
      profile: null,
      adult: isAdult(v),
    }),
  },
  guest: {
    endpoint: "/api/guest/create",
    get fallback() {
      return t("auth.guest_failed");
    },
    required: ["gender", "adult"],
    ready: (v) => (v.gender === "male" || v.gender === "female") && isAdult(v),
    check: adultProblem,
    payload: (v) => ({ gender: v.gender, adult: isAdult(v) }),
  },
};
