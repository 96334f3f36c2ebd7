// Profile value lists, shared by the server's validation and every form that offers them
// (the landing page, the chat island's profile and search forms). No imports: safe in a bundle.
export const genders = ["male", "female", "other", "non_binary", "prefer_not_to_say"] as const;

export const orientations = [
  "heterosexual",
  "homosexual",
  "bisexual",
  "pansexual",
  "asexual",
  "other",
  "prefer_not_to_say",
] as const;

export const MIN_AGE = 18;
export const MAX_AGE = 99;
