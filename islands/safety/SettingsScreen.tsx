// The frame of a settings section on the chat screen: a bar with its title (and Back on phones).
import type { ReactNode } from "react";
import { useChat } from "../chat/context.ts";
import Icon from "../chat/icons.tsx";
import { t } from "../i18n.ts";

export default function SettingsScreen({ id, title, children }: { id: string; title: string; children: ReactNode }) {
  const controller = useChat();
  return (
    <section className="settings-main" aria-labelledby={id}>
      <div className="screen-bar">
        <button type="button" className="icon-button back-button" aria-label={t("chat.back_to_settings")} onClick={() => controller.selectSettingsSection(null)}>
          <Icon name="back" />
        </button>
        <h2 id={id} className="screen-bar-title">
          {title}
        </h2>
      </div>
      <div className="profile-scroll">{children}</div>
    </section>
  );
}
