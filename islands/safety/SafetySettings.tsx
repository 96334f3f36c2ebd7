// Settings → Safety (issue 12): the nudity blur. Its own section, so the switch is found where
// its name says rather than under Privacy.
import { t } from "../i18n.ts";
import NudityBlurSetting from "./NudityBlurSetting.tsx";
import SettingsScreen from "./SettingsScreen.tsx";

export default function SafetySettings() {
  return (
    <SettingsScreen id="safety-heading" title={t("chat.settings_safety")}>
      <NudityBlurSetting />
    </SettingsScreen>
  );
}
