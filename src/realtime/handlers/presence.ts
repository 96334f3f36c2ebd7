// One tab's presence (user_logout, user_back_online) and whose presence it watches. Its ping is
// answered by the dispatcher (dispatch.ts), without the user's row.
import { toId, type HandlerMap } from "../handler.ts";

export const presenceHandlers: HandlerMap<"user_logout" | "user_back_online" | "presence_watch"> = {
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
