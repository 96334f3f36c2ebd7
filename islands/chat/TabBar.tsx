// The four tabs with the online counter and the unread badge; arrow keys move between tabs.
import { useSignals } from "@preact/signals-react/runtime";
import type { KeyboardEvent } from "react";
import { badgeText } from "../lib/format.ts";
import type { Tab } from "../lib/types.ts";
import { useChat } from "./context.ts";
import Icon from "./icons.tsx";

const TABS: { id: Tab; label: string; icon: "users" | "chat" | "video" | "settings" }[] = [
  { id: "users", label: "All Users", icon: "users" },
  { id: "chats", label: "Chats", icon: "chat" },
  { id: "video", label: "Video Chat", icon: "video" },
  { id: "settings", label: "Settings", icon: "settings" },
];

export default function TabBar() {
  useSignals();
  const controller = useChat();
  const { store } = controller;
  const active = store.tab.value;
  const unread = badgeText(store.unreadTotal.value);
  const online = store.usersLoading.value ? "" : String(store.onlineCount.value);

  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    if (event.key !== "ArrowRight" && event.key !== "ArrowLeft") return;
    const index = TABS.findIndex((t) => t.id === active);
    const next = TABS[(index + (event.key === "ArrowRight" ? 1 : TABS.length - 1)) % TABS.length];
    if (!next) return;
    controller.selectTab(next.id);
    event.currentTarget.querySelector<HTMLButtonElement>(`[data-tab="${next.id}"]`)?.focus();
  };

  return (
    <nav className="tab-bar" aria-label="Sections">
      <div role="tablist" aria-label="Sections" onKeyDown={onKeyDown}>
        {TABS.map((tab) => {
          const selected = tab.id === active;
          const count = tab.id === "users" ? online : tab.id === "chats" ? unread : "";
          return (
            <button
              key={tab.id}
              type="button"
              role="tab"
              data-tab={tab.id}
              aria-selected={selected}
              tabIndex={selected ? 0 : -1}
              className={`tab${selected ? " is-active" : ""}`}
              onClick={() => controller.selectTab(tab.id)}
            >
              {/* The name is the visible text, label first ("All Users 3 online"); CSS puts the label under the icon. */}
              <span className="tab-label">{tab.label}</span>
              <span className="tab-icon">
                <Icon name={tab.icon} />
                {count && <span className={tab.id === "chats" ? "badge badge-unread" : "badge badge-online"}>{count}</span>}
                {count && <span className="visually-hidden">{tab.id === "chats" ? " unread" : " online"}</span>}
              </span>
            </button>
          );
        })}
      </div>
    </nav>
  );
}
