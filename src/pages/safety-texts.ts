// Where Report and Block are, and how long what they keep is kept, said once for the landing
// page, the User Agreement and the legal pages, so no page names a button that does not exist
// (issue 7: five places used to name an abuse button that never existed).

/** Completes "press Report …" or "the Report button, …". */
export const REPORT_PLACES =
  "in a person's profile, in the chat header's \u22EE menu, in the menu of a single message, during a call, or on the stranger's video in Video Roulette";

export const BLOCK_SENTENCE =
  "Block is next to Report in a person's profile, in the chat header's \u22EE menu and on the stranger's video in Video Roulette, and the report dialog offers it after every report; Settings \u2192 Blocked people lists everyone you blocked, with Unblock.";

/**
 * Reports and their evidence are kept until a moderator closes them, then this many days (the
 * default of REPORT_RETENTION_DAYS in the moderation issue), except reports of someone appearing
 * to be under 18, which an operator may have a legal duty to preserve.
 */
export const REPORT_RETENTION_DAYS = 90;

export const UNDER_18_RETENTION =
  "Reports that someone appears to be under 18 are kept until an administrator deletes them, because the law may require us to preserve and report such material.";

/** How many of a reported conversation's latest messages a chat or message report copies. */
export const REPORTED_MESSAGES = 50;

/** How long after a roulette session its text chat is kept (memory, and a copy for restarts), so that it can be reported. */
export const ROULETTE_TEXT_MINUTES = 10;
