// The four tabs with the online counter and the unread badge: an ARIA tab list (one tab in the tab
// order; the arrow keys move and select, Home and End go to the first and the last) controlling the
// sidebar's panel (Sidebar.tsx, which puts this bar before the panel in the DOM and under it on screen).
import { dir, t } from "../i18n.ts";
import type { Key } from "../../src/i18n/catalogues/en.ts";
import { useSignals } from "@preact/signals-react/runtime";
import type { KeyboardEvent } from "react";
import { badgeText } from "../lib/format.ts";
import type { Tab } from "../lib/types.ts";
import { useChat } from "./context.ts";
import Icon from "./icons.tsx";

const TABS: { id: Tab; label: Key; icon: "users" | "chat" | "video" | "settings" }[] = [
  { id: "users", label: "chat.tab_users", icon: "users" },
  { id: "chats", label: "chat.tab_chats", icon: "chat" },
  { id: "video", label: "chat.tab_video", icon: "video" },
  { id: "settings", label: "chat.settings", icon: "settings" },
];

/** The sidebar's panel, which the selected tab names. */
export const PANEL_ID = "sidebar-panel";
export const tabId = (tab: Tab) => `tab-${tab}`;

export default function TabBar() {
  useSignals();
  const controller = useChat();
  const { store } = controller;
  const active = store.tab.value;
  const unread = badgeText(store.unreadTotal.value);
  const online = store.usersLoading.value ? "" : String(store.onlineCount.value);

  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    const index = TABS.findIndex((t) => t.id === active);
    // Right to left, the arrow keys follow the mirrored order.
    const [forward, back] = dir() === "rtl" ? ["ArrowLeft", "ArrowRight"] : ["ArrowRight", "ArrowLeft"];
    const target = { [forward]: index + 1, [back]: index - 1 + TABS.length, Home: 0, End: TABS.length - 1 }[event.key];
    const next = target === undefined ? undefined : TABS[target % TABS.length];
    if (!next) return;
    event.preventDefault();
    controller.selectTab(next.id);
    event.currentTarget.querySelector<HTMLButtonElement>(`[data-tab="${next.id}"]`)?.focus();
  };

  return (
    <nav className="tab-bar" aria-label={t("chat.sections")}>
      <div role="tablist" aria-label={t("chat.sections")} onKeyDown={onKeyDown}>
        {TABS.map((tab) => {
          const selected = tab.id === active;
          const count = tab.id === "users" ? online : tab.id === "chats" ? unread : "";
          return (
            <button
              key={tab.id}
              type="button"
              role="tab"
              id={tabId(tab.id)}
              data-tab={tab.id}
              aria-selected={selected}
              aria-controls={PANEL_ID}
              tabIndex={selected ? 0 : -1}
              className={`tab${selected ? " is-active" : ""}`}
              onClick={() => controller.selectTab(tab.id)}
            >
              {/* The name is the visible text, label first ("All Users 3 online"); CSS puts the label under the icon. */}
              <span className="tab-label">{t(tab.label)}</span>
              <span className="tab-icon">
                <Icon name={tab.icon} />
                {count && <span className={tab.id === "chats" ? "badge badge-unread" : "badge badge-online"}>{count}</span>}
                {count && <span className="visually-hidden">{tab.id === "chats" ? t("chat.unread_suffix") : t("chat.online_suffix")}</span>}
              </span>
            </button>
          );
        })}
      </div>
    </nav>
  );
}
