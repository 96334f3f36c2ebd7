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

type IconName = Parameters<typeof Icon>[0]["name"];
const SECTIONS: { section: SettingsSection; icon: IconName; title: string; sub: string }[] = [
  { section: "profile", icon: "user", title: "Profile Settings", sub: "Edit your profile information" },
  { section: "blocked", icon: "block", title: "Blocked people", sub: "People you blocked, and Unblock" },
  { section: "privacy", icon: "shield", title: "Privacy", sub: "Who can message and call you" },
  { section: "safety", icon: "block", title: "Safety", sub: "Blur nudity in video and pictures" },
  { section: "notifications", icon: "bell", title: "Notifications", sub: "Hear about messages and calls with the tab closed" },
];

export default function SettingsSidebar() {
  useSignals();
  const controller = useChat();
  const { store } = controller;
  const me = store.me.value;
  const [nameOpen, setNameOpen] = useState(false);
  const section = store.settingsSection.value;
  const facts = [me.age ? `${me.age} years` : "", me.country_name ? `${flagEmoji(me.country_code)} ${me.country_name}` : ""].filter(Boolean);
  return (
    <section className="tab-panel settings-sidebar" aria-labelledby="settings-heading">
      <div className="panel-header">
        <h2 id="settings-heading" className="panel-heading">Settings</h2>
      </div>
      <div className="me-card">
        <Avatar name={me.name} url={me.avatar_url} size="lg" />
        <div className="me-card-text">
          <span className="me-card-name">
            {me.name}
            <button type="button" className="icon-button small" aria-label="Edit display name" onClick={() => setNameOpen(true)}>
              <Icon name="edit" size={14} />
            </button>
          </span>
          <span className="muted small">@{me.username}</span>
          {facts.length > 0 && <span className="muted small">{facts.join(" · ")}</span>}
        </div>
      </div>
      <nav className="settings-menu" aria-label="Settings sections">
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
              <span className="menu-title">{item.title}</span>
              <span className="menu-sub">{item.sub}</span>
            </span>
          </button>
        ))}
        {isModerator(me) && (
          <a className="menu-item" href="/mod">
            <span className="menu-icon"><Icon name="flag" /></span>
            <span className="menu-text">
              <span className="menu-title">Moderation</span>
              <span className="menu-sub">Reports, users, bans and appeals</span>
            </span>
          </a>
        )}
        <button type="button" className="menu-item danger" onClick={() => void logout(controller)}>
          <span className="menu-icon"><Icon name="logout" /></span>
          <span className="menu-text">
            <span className="menu-title">Logout</span>
            <span className="menu-sub">Sign out of your account</span>
          </span>
        </button>
      </nav>
      {nameOpen && <NameModal onClose={() => setNameOpen(false)} />}
    </section>
  );
}
