// Profile settings: the avatar, then my details read-only or in Edit Profile mode.
import { useSignals } from "@preact/signals-react/runtime";
import { useState } from "react";
import { flagEmoji, optionLabel } from "../lib/format.ts";
import AvatarEditor from "./AvatarEditor.tsx";
import { useChat } from "./context.ts";
import Icon from "./icons.tsx";
import ProfileForm from "./ProfileForm.tsx";
import { languageList } from "../interests/languages.ts";
import { INTEREST_TEXTS } from "../interests/texts.ts";

export default function ProfileSettings() {
  useSignals();
  const controller = useChat();
  const me = controller.store.me.value;
  const [editing, setEditing] = useState(false);
  const rows: [string, string][] = [
    ["Username", `@${me.username}`],
    ["Display name", me.name],
    ["Age", me.age ? String(me.age) : "Not set"],
    ["Country", me.country_name ? `${flagEmoji(me.country_code)} ${me.country_name}` : "Not set"],
    ["Gender", optionLabel(me.gender) || "Not set"],
    ["Orientation", optionLabel(me.orientation) || "Not set"],
    [INTEREST_TEXTS.interests, (me.interests ?? []).join(", ") || INTEREST_TEXTS.none],
    [INTEREST_TEXTS.languages, languageList(me.languages ?? []) || INTEREST_TEXTS.none],
  ];
  return (
    <section className="settings-main" aria-labelledby="profile-settings-heading">
      <div className="screen-bar">
        <button
          type="button"
          className="icon-button back-button"
          aria-label="Back to settings"
          onClick={() => controller.selectSettingsSection(null)}
        >
          <Icon name="back" />
        </button>
        <h2 id="profile-settings-heading" className="screen-bar-title">Profile Settings</h2>
      </div>
      <div className="profile-scroll">
        <AvatarEditor />
        <div className="card">
          <div className="card-head">
            <h3>{editing ? "Edit Profile" : "Profile"}</h3>
            {!editing && (
              <button type="button" className="button small" onClick={() => setEditing(true)}>
                <Icon name="edit" size={16} /> Edit Profile
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
