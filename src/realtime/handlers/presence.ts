// ping / pong, one tab's presence (user_logout, user_back_online) and whose presence it watches.
import { toId, type HandlerMap } from "../handler.ts";

export const presenceHandlers: HandlerMap<"ping" | "user_logout" | "user_back_online" | "presence_watch"> = {
  ping: ({ app, socket }) => {
    app.hub.send(socket, "pong", {});
  },
  user_logout: ({ app, socket }) => {
    app.hub.setPresent(socket, false);
  },
  user_back_online: ({ app, socket }) => {
    app.hub.setPresent(socket, true);
  },
  // The schema caps the list at 200; a blocked person is filtered when presence is sent, so a
  // watch reveals no more than the people list does.
  presence_watch: ({ app, socket }, { userIds }) => {
    app.hub.watch(socket, userIds.map(toId));
  },
};
