// Profile settings: the avatar, then my details read-only or in Edit Profile mode.
import { useSignals } from "@preact/signals-react/runtime";
import { useState } from "react";
import { countryLabel, flagEmoji, optionLabel } from "../lib/format.ts";
import AvatarEditor from "./AvatarEditor.tsx";
import { useChat } from "./context.ts";
import Icon from "./icons.tsx";
import ProfileForm from "./ProfileForm.tsx";
import { languageList } from "../interests/languages.ts";
import { INTEREST_TEXTS } from "../interests/texts.ts";
import { t } from "../i18n.ts";

export default function ProfileSettings() {
  useSignals();
  const controller = useChat();
  const me = controller.store.me.value;
  const [editing, setEditing] = useState(false);
  const rows: [string, string][] = [
    [t("chat.field_username"), `@${me.username}`],
    [t("chat.field_display_name"), me.name],
    [t("chat.field_age"), me.age ? String(me.age) : t("chat.not_set")],
    [t("chat.field_country"), me.country_name ? `${flagEmoji(me.country_code)} ${countryLabel(me.country_code, me.country_name)}` : t("chat.not_set")],
    [t("chat.field_gender"), optionLabel(me.gender) || t("chat.not_set")],
    [t("chat.field_orientation"), optionLabel(me.orientation) || t("chat.not_set")],
    [INTEREST_TEXTS.interests, (me.interests ?? []).join(t("common.list_separator")) || INTEREST_TEXTS.none],
    [INTEREST_TEXTS.languages, languageList(me.languages ?? []) || INTEREST_TEXTS.none],
  ];
  return (
    <section className="settings-main" aria-labelledby="profile-settings-heading">
      <div className="screen-bar">
        <button
          type="button"
          className="icon-button back-button"
          aria-label={t("chat.back_to_settings")}
          onClick={() => controller.selectSettingsSection(null)}
        >
          <Icon name="back" />
        </button>
        <h2 id="profile-settings-heading" className="screen-bar-title">{t("chat.settings_profile")}</h2>
      </div>
      <div className="profile-scroll">
        <AvatarEditor />
        <div className="card">
          <div className="card-head">
            <h3>{editing ? t("chat.edit_profile") : t("chat.profile")}</h3>
            {!editing && (
              <button type="button" className="button small" onClick={() => setEditing(true)}>
                <Icon name="edit" size={16} /> {t("chat.edit_profile")}
              </button>
            )}
          </div>
          {editing ? (
            <ProfileForm onDone={() => setEditing(false)} />
          ) : (
            <dl>
              {rows.map(([label, value]) => (
                <div className="info-row" key={label}>
                  <dt>{label}</dt>
                  <dd>{value}</dd>
                </div>
              ))}
            </dl>
          )}
        </div>
      </div>
    </section>
  );
}
