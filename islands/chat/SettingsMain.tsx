// The settings main area: the chosen section, or a placeholder until one is chosen. The safety
// sections load on first use.
import { useSignals } from "@preact/signals-react/runtime";
import { lazy, Suspense } from "react";
import { useChat } from "./context.ts";
import EmptyState from "./EmptyState.tsx";
import ProfileSettings from "./ProfileSettings.tsx";
import { t } from "../i18n.ts";

const BlockedPeople = lazy(() => import("../safety/BlockedPeople.tsx"));
const PrivacySettings = lazy(() => import("../safety/PrivacySettings.tsx"));
const SafetySettings = lazy(() => import("../safety/SafetySettings.tsx"));
const NotificationSettings = lazy(() => import("../push/NotificationSettings.tsx"));
const LanguageSettings = lazy(() => import("./LanguageSettings.tsx"));
const SAFETY_SECTIONS = { blocked: BlockedPeople, privacy: PrivacySettings, safety: SafetySettings, notifications: NotificationSettings, language: LanguageSettings };

export default function SettingsMain() {
  useSignals();
  const { store } = useChat();
  const section = store.settingsSection.value;
  if (section === "profile") return <ProfileSettings />;
  if (section === "blocked" || section === "privacy" || section === "safety" || section === "notifications" || section === "language") {
    const Section = SAFETY_SECTIONS[section];
    return (
      <Suspense fallback={<div className="center-screen">{t("common.loading")}</div>}>
        <Section />
      </Suspense>
    );
  }
  return (
    <div className="center-screen">
      <EmptyState icon="settings" title={t("chat.settings")} text={t("chat.settings_choose")} />
    </div>
  );
}
