// ping / pong and one tab's presence (user_logout, user_back_online).
import type { HandlerMap } from "../handler.ts";

export const presenceHandlers: HandlerMap<"ping" | "user_logout" | "user_back_online"> = {
  ping: ({ app, socket }) => {
    app.hub.send(socket, "pong", {});
  },
  user_logout: ({ app, socket }) => {
    app.hub.setPresent(socket, false);
  },
  user_back_online: ({ app, socket }) => {
    app.hub.setPresent(socket, true);
  },
};
