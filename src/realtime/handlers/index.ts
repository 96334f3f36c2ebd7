// Event name to handler, one file per family. `satisfies` makes a missing event a build error.
import type { HandlerMap } from "../handler.ts";
import { callHandlers } from "./calls.ts";
import { messageActionHandlers } from "./message-actions.ts";
import { messagingHandlers } from "./messaging.ts";
import { presenceHandlers } from "./presence.ts";
import { rouletteHandlers } from "./roulette.ts";

export const handlers = {
  ...presenceHandlers,
  ...messagingHandlers,
  ...messageActionHandlers,
  ...callHandlers,
  ...rouletteHandlers,
} satisfies HandlerMap;
