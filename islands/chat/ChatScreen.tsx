// The screen's frame: sidebar (tab content and tab bar) beside the main area.
import { useSignals } from "@preact/signals-react/runtime";
import ChatToaster from "./ChatToaster.tsx";
import { useChat } from "./context.ts";
import MainArea from "./MainArea.tsx";
import Sidebar from "./Sidebar.tsx";
import { t } from "../i18n.ts";

export default function ChatScreen() {
  useSignals();
  const { store } = useChat();
  const tab = store.tab.value;
  // On a phone one pane shows at a time: the main area once something is chosen for it.
  const showMain =
    tab === "video" ||
    (tab === "settings" && store.settingsSection.value !== null) ||
    ((tab === "users" || tab === "chats") && store.selected.value !== null);
  return (
    <div className={`chat-app tab-${tab}${showMain ? " show-main" : ""}`}>
      <Sidebar />
      <section className="main-area" id="chat-main" aria-label={t("chat.conversation")}>
        <MainArea />
      </section>
      <ChatToaster />
    </div>
  );
}
