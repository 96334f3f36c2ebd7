// Chats: people with conversations, a search box, and time labels refreshed every 60 s.
import { t } from "../i18n.ts";
import { useSignals } from "@preact/signals-react/runtime";
import { useEffect, useId, useState } from "react";
import { searchChats } from "../lib/lists.ts";
import ChatRow from "./ChatRow.tsx";
import { useChat } from "./context.ts";
import EmptyState from "./EmptyState.tsx";
import Icon from "./icons.tsx";
import ListSkeleton from "./ListSkeleton.tsx";

export const TIME_REFRESH_MS = 60_000;

export default function ChatsTab() {
  useSignals();
  const { store } = useChat();
  const [query, setQuery] = useState("");
  const [now, setNow] = useState(() => new Date());
  const searchId = useId();

  useEffect(() => {
    const timer = setInterval(() => setNow(new Date()), TIME_REFRESH_MS);
    return () => clearInterval(timer);
  }, []);

  const chats = store.chats.value;
  const shown = searchChats(chats, query);
  return (
    <section className="tab-panel" aria-labelledby="chats-heading">
      <div className="panel-header">
        <h2 id="chats-heading" className="panel-heading">{t("chat.tab_chats")}</h2>
      </div>
      <div className="search-box">
        <Icon name="search" size={16} />
        <label htmlFor={searchId} className="visually-hidden">{t("chat.search_chats")}</label>
        <input
          id={searchId}
          type="search"
          placeholder={t("chat.search_chats_placeholder")}
          value={query}
          onChange={(e) => setQuery(e.target.value)}
        />
      </div>
      <div className="list-scroll">
        {store.chatsLoading.value ? (
          <ListSkeleton rows={8} />
        ) : shown.length === 0 && query.trim() ? (
          <EmptyState icon="search" title={t("chat.no_chats_found")} text={t("chat.try_other_search")} />
        ) : shown.length === 0 ? (
          <EmptyState icon="chat" title={t("chat.no_history")} text={t("chat.no_history_text")} />
        ) : (
          <ul className="list">
            {shown.map((user) => (
              <ChatRow key={user.id} user={user} now={now} />
            ))}
          </ul>
        )}
      </div>
    </section>
  );
}
