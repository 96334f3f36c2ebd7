// The settings main area: profile settings, or a placeholder until a section is chosen.
import { useSignals } from "@preact/signals-react/runtime";
import { useChat } from "./context.ts";
import EmptyState from "./EmptyState.tsx";
import ProfileSettings from "./ProfileSettings.tsx";

export default function SettingsMain() {
  useSignals();
  const { store } = useChat();
  if (store.settingsSection.value === "profile") return <ProfileSettings />;
  return (
    <div className="center-screen">
      <EmptyState icon="settings" title="Settings" text="Choose a section from the menu" />
    </div>
  );
}
