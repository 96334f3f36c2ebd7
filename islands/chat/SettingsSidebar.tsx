// Settings menu: who I am, 'Profile Settings', 'Blocked people', 'Privacy', 'Safety', for moderators and
// admins 'Moderation' (the console at /mod, server-rendered pages), and 'Logout'.
import { useSignals } from "@preact/signals-react/runtime";
import { useState } from "react";
import { logout } from "../lib/account.ts";
import { flagEmoji } from "../lib/format.ts";
import { isModerator } from "../lib/moderation.ts";
import Avatar from "./Avatar.tsx";
import { useChat } from "./context.ts";
import Icon from "./icons.tsx";
import NameModal from "./NameModal.tsx";
import type { SettingsSection } from "../lib/types.ts";
import type { Key } from "../../src/i18n/catalogues/en.ts";
import { t } from "../i18n.ts";

type IconName = Parameters<typeof Icon>[0]["name"];
const SECTIONS: { section: SettingsSection; icon: IconName; title: Key; sub: Key }[] = [
  { section: "profile", icon: "user", title: "chat.settings_profile", sub: "chat.settings_profile_sub" },
  { section: "blocked", icon: "block", title: "chat.settings_blocked", sub: "chat.settings_blocked_sub" },
  { section: "privacy", icon: "shield", title: "chat.settings_privacy", sub: "chat.settings_privacy_sub" },
  { section: "safety", icon: "block", title: "chat.settings_safety", sub: "chat.settings_safety_sub" },
  { section: "notifications", icon: "bell", title: "chat.settings_notifications", sub: "chat.settings_notifications_sub" },
  { section: "language", icon: "globe", title: "lang.settings_title", sub: "lang.settings_sub" },
];

export default function SettingsSidebar() {
  useSignals();
  const controller = useChat();
  const { store } = controller;
  const me = store.me.value;
  const [nameOpen, setNameOpen] = useState(false);
  const section = store.settingsSection.value;
  const facts = [me.age ? t("chat.age_years", { count: me.age }) : "", me.country_name ? `${flagEmoji(me.country_code)} ${me.country_name}` : ""].filter(Boolean);
  return (
    <section className="tab-panel settings-sidebar" aria-labelledby="settings-heading">
      <div className="panel-header">
        <h2 id="settings-heading" className="panel-heading">{t("chat.settings")}</h2>
      </div>
      <div className="me-card">
        <Avatar name={me.name} url={me.avatar_url} size="lg" />
        <div className="me-card-text">
          <span className="me-card-name">
            {me.name}
            <button type="button" className="icon-button small" aria-label={t("chat.edit_name")} onClick={() => setNameOpen(true)}>
              <Icon name="edit" size={14} />
            </button>
          </span>
          <span className="muted small">@{me.username}</span>
          {facts.length > 0 && <span className="muted small">{facts.join(" · ")}</span>}
        </div>
      </div>
      <nav className="settings-menu" aria-label={t("chat.settings_sections")}>
        {SECTIONS.map((item) => (
          <button
            key={item.section}
            type="button"
            className={`menu-item${section === item.section ? " is-selected" : ""}`}
            aria-current={section === item.section ? "page" : undefined}
            onClick={() => controller.selectSettingsSection(item.section)}
          >
            <span className="menu-icon"><Icon name={item.icon} /></span>
            <span className="menu-text">
              <span className="menu-title">{t(item.title)}</span>
              <span className="menu-sub">{t(item.sub)}</span>
            </span>
          </button>
        ))}
        {isModerator(me) && (
          <a className="menu-item" href="/mod">
            <span className="menu-icon"><Icon name="flag" /></span>
            <span className="menu-text">
              <span className="menu-title">{t("chat.moderation")}</span>
              <span className="menu-sub">{t("chat.moderation_sub")}</span>
            </span>
          </a>
        )}
        <button type="button" className="menu-item danger" onClick={() => void logout(controller)}>
          <span className="menu-icon"><Icon name="logout" /></span>
          <span className="menu-text">
            <span className="menu-title">{t("chat.logout")}</span>
            <span className="menu-sub">{t("chat.logout_sub")}</span>
          </span>
        </button>
      </nav>
      {nameOpen && <NameModal onClose={() => setNameOpen(false)} />}
    </section>
  );
}
