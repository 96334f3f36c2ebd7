// One tab's presence (user_logout, user_back_online) and whose presence it watches. Its ping is
// answered by the dispatcher (dispatch.ts), without the user's row.
import { ringNewTab } from "../../calls/endings.ts";
import { toId, type HandlerMap } from "../handler.ts";

export const presenceHandlers: HandlerMap<"user_logout" | "user_back_online" | "presence_watch"> = {
  user_logout: ({ app, socket }) => {
    app.hub.setPresent(socket, false);
  },
  user_back_online: ({ app, socket }) => {
    const wasAway = !socket.present;
    app.hub.setPresent(socket, true);
    // Back after user_logout (5 minutes hidden, say): a call placed while no tab of theirs was
    // present rings here, as in a tab that opens.
    if (wasAway) ringNewTab(app, socket);
  },
  // The schema caps the list at 200; a blocked person is filtered when presence is sent, so a
  // watch reveals no more than the people list does.
  presence_watch: ({ app, socket }, { userIds }) => {
    app.hub.watch(socket, userIds.map(toId));
  },
};
