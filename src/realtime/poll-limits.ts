// The polling fallback's figures (README "Realtime over long-polling"), apart from its routes so
// the body rules (http/body/rules.ts) can read them without loading the realtime code.

/** How long a poll is held when nothing waits: well inside the 45 s idle rule and common proxy timeouts (60 s). */
export const POLL_HOLD_MS = 25_000;
/** One send's body: one largest /ws frame (64 KB) and its brackets; several smaller ones fit too. */
export const MAX_SEND_BYTES = 64 * 1024 + 1024;
/** Frames in one send: the socket events' burst (40), rounded up. */
export const MAX_SEND_FRAMES = 50;
/** Sends of one session waiting to be dispatched, in order, at once. */
export const MAX_SENDS_WAITING = 2;
