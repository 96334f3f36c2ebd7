// The chat screen island: every signed-in screen but calls and roulette. Rendered on the server
// first, then hydrated: nothing here touches browser APIs outside effects, and the first client
// render equals the server's (lists show skeletons until the effects below have run).
import { useEffect, useState } from "react";
import toast from "react-hot-toast";
import type { ChatAppProps } from "./props.ts";
import CallLayer from "./calls/CallLayer.tsx";
import ChatScreen from "./chat/ChatScreen.tsx";
import { ChatContext } from "./chat/context.ts";
import { createApi } from "./lib/api.ts";
import { setStrings, t } from "./i18n.ts";
import { ChatController, type Notifier } from "./lib/controller.ts";
import { attachChatEvents } from "./lib/events.ts";
import { attachModerationEvents, loadWarnings, showBan } from "./lib/moderation.ts";
import { attachPresence } from "./lib/presence.ts";
import { getRealtime, startRealtime, type ConnectionStatus, type RealtimeClient } from "./lib/socket.ts";
import { forgetSession, forgetStoredToken, KEYS, writeKey } from "./lib/storage.ts";
import { createStore } from "./lib/store.ts";
import { chatFromUrl } from "./sw/shared.ts";
import { listenForOpenChat } from "./sw/register.ts";
import ModerationLayer from "./moderation/ModerationLayer.tsx";
import AdultGate from "./safety/AdultGate.tsx";
import SafetyDialogs from "./safety/SafetyDialogs.tsx";
import "./safety/safety.css";
import "./chat/chat.css";
import "./chat/chat-window.css";
import "./chat/message-actions.css";
import "./chat/chat-screens.css";
import "./moderation/moderation.css";
import "./chat/rtl.css";

const notifier: Notifier = {
  success: (text) => toast.success(text),
  error: (text) => toast.error(text),
  info: (text) => toast(text),
};

export default function ChatApp(props: ChatAppProps) {
  // Before anything renders a word: this page's language (set on every render, so the server's
  // synchronous render of another request's island cannot leave its language behind).
  if (props.i18n) setStrings(props.i18n.locale, props.i18n.strings);
  const [controller] = useState(
    () => new ChatController(createStore(props.user), createApi(props.token), getRealtime, notifier),
  );
  // Calls and Video Roulette get the realtime client once this effect has started it.
  const [socket, setSocket] = useState<RealtimeClient | null>(null);

  useEffect(() => {
    const { store } = controller;
    // The token stays in memory (props); only the user id is stored (spec section 9), and a
    // token an earlier version stored is removed.
    forgetStoredToken();
    writeKey(KEYS.userId, props.user.id);
    if (props.flash) toast.success(props.flash);
    // A clicked notification's link names the chat to open; the address is then made plain "/".
    const linked = chatFromUrl(window.location.search);
    if (linked !== null) window.history.replaceState(null, "", "/");
    void controller.start(linked);
    const offOpenChat = listenForOpenChat((chatId) => void controller.openChat(chatId));
    const onNetwork = () => (store.networkOnline.value = navigator.onLine);
    onNetwork();
    window.addEventListener("online", onNetwork);
    window.addEventListener("offline", onNetwork);
    void loadWarnings(controller);

    const socket = startRealtime(props.token);
    setSocket(socket);
    const offEvents = attachChatEvents(controller, socket);
    const offModeration = attachModerationEvents(controller, socket);
    // Banned: nothing more goes out or comes in (the server closes with 4403 anyway).
    const offBanned = store.banned.subscribe((banned) => {
      if (banned) socket.disconnect();
    });
    let wasConnected = false;
    const onStatus = (status: ConnectionStatus) => {
      store.connection.value = status;
      if (status === "failed") toast.error(t("chat.connection_error"));
      if (status === "banned") showBan(controller, null);
      if (status === "unauthorized") {
        // The session was revoked (logout elsewhere, a ban): this page can do nothing more.
        forgetSession();
        window.location.assign("/");
      }
      if (status === "connected") {
        // Connected means the server answered, so it holds the connection: what it missed
        // before is read now (the first time, only what the lists loaded at start may lack).
        if (wasConnected) controller.resync();
        else void controller.catchUp();
        wasConnected = true;
      }
    };
    onStatus(socket.status);
    const offStatus = socket.onStatus(onStatus);
    const offPresence = attachPresence(socket);
    return () => {
      offOpenChat();
      window.removeEventListener("online", onNetwork);
      window.removeEventListener("offline", onNetwork);
      offPresence();
      offStatus();
      offBanned();
      offModeration();
      offEvents();
      socket.disconnect();
      controller.stop();
    };
    // The island mounts once per page; its props never change after hydration.
  }, []);

  return (
    <ChatContext.Provider value={controller}>
      <ModerationLayer>
        <CallLayer socket={socket} ice={props.ice} notify={notifier.info}>
          <ChatScreen />
        </CallLayer>
        <SafetyDialogs />
        <AdultGate />
      </ModerationLayer>
    </ChatContext.Provider>
  );
}
