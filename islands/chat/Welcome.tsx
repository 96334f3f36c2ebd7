// The main area with nothing selected.
import Icon from "./icons.tsx";

export default function Welcome() {
  return (
    <div className="center-screen welcome">
      <span className="welcome-icon">
        <Icon name="chat" size={40} />
      </span>
      <h2>Welcome to Web Chat</h2>
      <p>Select a user from the sidebar to start chatting</p>
    </div>
  );
}
