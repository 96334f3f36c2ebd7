import { Type as t } from "@sinclair/typebox";
import { fields } from "../users/model.ts";
import { profileField } from "../users/profile.ts";

/** "I am 18 or older and I accept the Terms": required, true. Forms send "on"/"true". */
export const adultField = t.Union([t.Literal(true), t.Literal("true"), t.Literal("on")], {
  error: "Please confirm that you are 18 or older and accept the Terms",
});

export const registerBody = t.Object({
  username: fields.username,
  email: fields.email,
  password: fields.password,
  name: fields.name,
  gender: fields.gender,
  age: fields.age,
  country_code: fields.countryCode,
  country_name: t.Optional(t.Union([t.String({ maxLength: 100 }), t.Null()])),
  orientation: t.Optional(fields.orientation),
  // Optional at sign-up (issue 24), under the same rules as in Settings.
  interests: t.Optional(fields.interests),
  languages: t.Optional(fields.languages),
  profile: profileField,
  adult: adultField,
});

const identifier = t.String({ minLength: 1, maxLength: 254, error: "Enter your username or e-mail" });

/** The username field may hold an e-mail; an `email` field is accepted in its place. */
export const loginBody = t.Object({
  username: t.Optional(identifier),
  email: t.Optional(identifier),
  password: t.String({ minLength: 1, maxLength: 1024, error: "Enter your password" }),
});

export const guestBody = t.Object({
  gender: t.Union([t.Literal("male"), t.Literal("female")], { error: "Choose male or female" }),
  adult: adultField,
});
