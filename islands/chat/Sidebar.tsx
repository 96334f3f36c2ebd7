// The sidebar: who I am, the tab bar, and the active tab's panel (shown above the tab bar).
import { t } from "../i18n.ts";
import { useSignals } from "@preact/signals-react/runtime";
import Avatar from "./Avatar.tsx";
import ChatsTab from "./ChatsTab.tsx";
import { useChat } from "./context.ts";
import ListSkeleton from "./ListSkeleton.tsx";
import SettingsSidebar from "./SettingsSidebar.tsx";
import TabBar, { PANEL_ID, tabId } from "./TabBar.tsx";
import UsersTab from "./UsersTab.tsx";
import VideoChatSidebar from "./VideoChatSidebar.tsx";

function Panel() {
  useSignals();
  const { store } = useChat();
  // Before local storage is read the saved tab is unknown: show neutral rows, as the server did.
  if (!store.ready.value) return <ListSkeleton rows={8} />;
  switch (store.tab.value) {
    case "users":
      return <UsersTab />;
    case "chats":
      return <ChatsTab />;
    case "video":
      return <VideoChatSidebar />;
    case "settings":
      return <SettingsSidebar />;
  }
}

export default function Sidebar() {
  useSignals();
  const { store } = useChat();
  const me = store.me.value;
  const connection = store.connection.value;
  const offline = connection === "reconnecting" || connection === "failed" || !store.networkOnline.value;
  return (
    <aside className="sidebar" aria-label={t("chat.sidebar")}>
      <header className="sidebar-header">
        <span className="brand">
          <span className="brand-mark" aria-hidden="true">W</span>
          <span className="brand-name">Web Chat</span>
        </span>
        <span className="me" title={me.name}>
          <Avatar name={me.name} url={me.avatar_url} size="sm" online={!offline} />
          <span className="me-name">{me.name}</span>
        </span>
      </header>
      {!store.networkOnline.value ? (
        <p className="connection-banner" role="status">
          {t("chat.network_offline")}
        </p>
      ) : offline ? (
        <p className="connection-banner" role="status">
          {connection === "failed" ? t("chat.offline") : t("chat.reconnecting")}
        </p>
      ) : null}
      {/* Before the panel in the DOM, so Tab reaches the tabs before the rows; CSS keeps it under them. */}
      <TabBar />
      <div className="sidebar-panel" id={PANEL_ID} role="tabpanel" aria-labelledby={tabId(store.tab.value)}>
        <Panel />
      </div>
    </aside>
  );
}
