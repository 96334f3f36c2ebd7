// The main area with nothing selected.
import { t } from "../i18n.ts";
import Icon from "./icons.tsx";

export default function Welcome() {
  return (
    <div className="center-screen welcome">
      <span className="welcome-icon">
        <Icon name="chat" size={40} />
      </span>
      <h2>{t("chat.welcome_title", { site: "Web Chat" })}</h2>
      <p>{t("chat.welcome_text")}</p>
    </div>
  );
}
