// A friendly empty list or empty screen: icon, title, one line of help.
import Icon from "./icons.tsx";

interface Props {
  icon: "search" | "chat" | "users" | "settings";
  title: string;
  text: string;
}

export default function EmptyState({ icon, title, text }: Props) {
  return (
    <div className="empty-state">
      <span className="empty-icon">
        <Icon name={icon} size={28} />
      </span>
      <p className="empty-title">{title}</p>
      <p className="empty-text">{text}</p>
    </div>
  );
}
