// The message actions' fixed rules, in a module of plain values so the browser bundle can import
// them (protocol.ts holds TypeBox schemas, which the islands may import only as types).

/** How long after sending a text message its sender may edit it (API.md "Messages: replies..."). */
export const EDIT_WINDOW_MS = 15 * 60 * 1000;

/**
 * The reactions a message accepts: the emoji picker's seven quick reactions (product spec,
 * "Emoji picker defaults"; emoji-picker-react's defaults), in the order the picker shows them.
 */
export const QUICK_REACTIONS = ["👍", "❤️", "😃", "😢", "🙏", "👎", "😡"] as const;

/** How much of the replied-to message's text a reply carries. */
export const REPLY_PREVIEW_CHARS = 100;

/** The longest voice message, and its largest recording. */
export const MAX_VOICE_MS = 5 * 60 * 1000;
export const MAX_VOICE_BYTES = 5 * 1024 * 1024;
