// The main area: the active tab's screen, the open chat or profile, or the welcome screen.
import { useSignals } from "@preact/signals-react/runtime";
import ChatWindow from "./ChatWindow.tsx";
import { useChat } from "./context.ts";
import ProfileView from "./ProfileView.tsx";
import SettingsMain from "./SettingsMain.tsx";
import VideoChatPanel from "./VideoChatPanel.tsx";
import Welcome from "./Welcome.tsx";
import { t } from "../i18n.ts";

export default function MainArea() {
  useSignals();
  const { store } = useChat();
  if (!store.ready.value) {
    return (
      <div className="center-screen" role="status">
        {t("common.loading")}
      </div>
    );
  }
  const tab = store.tab.value;
  if (tab === "video") return <VideoChatPanel />;
  if (tab === "settings") return <SettingsMain />;
  const contact = store.selected.value;
  if (!contact) return <Welcome />;
  return store.viewMode.value === "profile" ? <ProfileView user={contact} /> : <ChatWindow key={contact.id} contact={contact} />;
}
