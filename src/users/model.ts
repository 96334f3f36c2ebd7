// Profile fields as the API accepts them (API.md "Validation").
import { Type as t } from "@sinclair/typebox";
import { confusableFold } from "./names/skeleton.ts";
import { displayNameProblem, nameMessages, normaliseName, normaliseUsername, usernameProblem } from "./names/rules.ts";
import { genders, MAX_AGE, MAX_INTERESTS, MAX_LANGUAGES, MIN_AGE, orientations } from "./values.ts";

const INTEREST_LIST_RULE = `Interests must be a list of at most ${MAX_INTERESTS} words`;
const LANGUAGE_LIST_RULE = `Languages must be a list of at most ${MAX_LANGUAGES} ISO 639-1 codes`;

export { genders, orientations };

const oneOf = (values: readonly string[], error: string) =>
  t.Union(values.map((v) => t.Literal(v)), { error });

export const fields = {
  // Names are NFKC-normalised first, then held to the rules of names/rules.ts (issue 18).
  username: t.String({
    pattern: "^[A-Za-z0-9_]{3,24}$",
    error: nameMessages.username,
    normalize: normaliseUsername,
    check: (value: string) => usernameProblem(value, confusableFold),
  }),
  email: t.String({
    maxLength: 254,
    pattern: "^[^\\s@]+@[^\\s@]+\\.[^\\s@]+$",
    error: "Enter a valid e-mail address",
  }),
  password: t.String({ minLength: 8, maxLength: 128, error: "Password must be 8 to 128 characters" }),
  name: t.String({
    minLength: 1,
    maxLength: 50,
    error: nameMessages.nameLength,
    normalize: normaliseName,
    check: (value: string) => displayNameProblem(value, confusableFold),
  }),
  gender: oneOf(genders, "Choose a gender"),
  orientation: oneOf(orientations, "Choose an orientation"),
  age: t.Integer({ minimum: MIN_AGE, maximum: MAX_AGE, error: "Age must be a whole number from 18 to 99" }),
  countryCode: t.String({ pattern: "^[A-Za-z]{2}$", error: "Choose a country" }),
  // Issue 24: checked and normalised in users/interests.ts (the schema only bounds what is read).
  interests: t.Array(t.String({ maxLength: 100 }), { maxItems: 50, error: INTEREST_LIST_RULE }),
  languages: t.Array(t.String({ maxLength: 10 }), { maxItems: 20, error: LANGUAGE_LIST_RULE }),
};

export const nudityBlurBody = t.Object({
  blur_nudity: t.Boolean({ error: "blur_nudity must be true or false" }),
});

export const profileBody = t.Object({
  name: fields.name,
  gender: t.Optional(fields.gender),
  age: t.Optional(t.Union([fields.age, t.Null()], { error: fields.age.error })),
  country_code: t.Optional(t.Union([fields.countryCode, t.Null()], { error: "Choose a country" })),
  country_name: t.Optional(t.Union([t.String({ maxLength: 100 }), t.Null()])),
  orientation: t.Optional(fields.orientation),
  // The spec's client sends avatar_url too; avatars change only through the upload calls.
  avatar_url: t.Optional(t.Union([t.String({ maxLength: 500 }), t.Null()])),
  interests: t.Optional(fields.interests),
  languages: t.Optional(fields.languages),
});
