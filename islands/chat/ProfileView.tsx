// A contact's profile: who they are, 'Start Chat', and Block (or Unblock) and Report.
import { useSignals } from "@preact/signals-react/runtime";
import { countryLabel, flagEmoji, longDate, optionLabel } from "../lib/format.ts";
import { openDialog, unblockUser } from "../lib/safety.ts";
import { live } from "../lib/presence-book.ts";
import type { ChatUser } from "../lib/types.ts";
import Avatar from "./Avatar.tsx";
import { useChat } from "./context.ts";
import Icon from "./icons.tsx";
import { languageList } from "../interests/languages.ts";
import { INTEREST_TEXTS } from "../interests/texts.ts";
import { t } from "../i18n.ts";

function Row({ label, value }: { label: string; value: string }) {
  return (
    <div className="info-row">
      <dt>{label}</dt>
      <dd>{value}</dd>
    </div>
  );
}

export default function ProfileView({ user: selected }: { user: ChatUser }) {
  useSignals();
  const controller = useChat();
  const user = live(controller.store.presence.value, selected);
  const details: [string, string][] = [
    [t("chat.field_gender"), optionLabel(user.gender)],
    [t("chat.field_age"), user.age ? String(user.age) : ""],
    [t("chat.field_country"), user.country_name ? `${flagEmoji(user.country_code)} ${countryLabel(user.country_code, user.country_name)}` : ""],
    [t("chat.field_orientation"), optionLabel(user.orientation)],
    [INTEREST_TEXTS.interests, (user.interests ?? []).join(t("common.list_separator"))],
    [INTEREST_TEXTS.theirLanguages, languageList(user.languages ?? [])],
  ];
  const present = details.filter(([, v]) => v);
  const blocked = controller.store.blocked.value[user.id] === true;
  // From a conversation (the header was clicked) back leads to it; from the user list, to the list.
  const back = () => (controller.store.tab.value === "chats" ? controller.setViewMode("chat") : controller.clearSelection());
  return (
    <section className="profile-view" aria-labelledby="profile-name">
      <div className="screen-bar">
        <button type="button" className="icon-button back-button" aria-label={t("chat.back")} onClick={back}>
          <Icon name="back" />
        </button>
        <span className="screen-bar-title">{t("chat.profile")}</span>
      </div>
      <div className="profile-scroll">
        <div className="profile-hero">
          <Avatar name={user.name} url={user.avatar_url} size="xl" online={user.is_online} />
          <h2 id="profile-name">{user.name}</h2>
          <p className="muted">@{user.username}</p>
          {/* One presence line: the spec's 'Last seen recently' is for someone who is not online. */}
          <p className="muted small presence-line">
            {user.is_online ? <span className="status-pill is-online">{t("chat.online")}</span> : t("chat.last_seen_recently")}
          </p>
          <div className="profile-actions">
            <button type="button" className="button primary" onClick={() => controller.setViewMode("chat")}>
              <Icon name="chat" size={18} /> {t("chat.start_chat")}
            </button>
            <button type="button" className="button" disabled>
              <Icon name="phone" size={18} /> {t("chat.call")}
            </button>
            <button type="button" className="button" disabled>
              <Icon name="video" size={18} /> {t("chat.video_call_button")}
            </button>
          </div>
        </div>
        <div className="card">
          <h3>{t("chat.information")}</h3>
          <dl>
            <Row label={t("chat.field_username")} value={`@${user.username}`} />
            <Row label={t("chat.field_display_name")} value={user.name} />
            <Row label={t("chat.member_since")} value={longDate(user.created_at)} />
          </dl>
        </div>
        {present.length > 0 && (
          <div className="card">
            <h3>{t("chat.profile_details")}</h3>
            <dl>
              {present.map(([label, value]) => (
                <Row key={label} label={label} value={value} />
              ))}
            </dl>
          </div>
        )}
        <div className="card">
          <h3>{t("chat.privacy_and_settings")}</h3>
          <div className="card-actions">
            {blocked ? (
              <button type="button" className="button" onClick={() => void unblockUser(controller, user)}>
                <Icon name="block" size={18} /> {t("chat.unblock_user")}
              </button>
            ) : (
              <button type="button" className="button danger-outline" onClick={() => openDialog(controller, { kind: "block", user })}>
                <Icon name="block" size={18} /> {t("chat.block_user")}
              </button>
            )}
            <button
              type="button"
              className="button danger-outline"
              onClick={() => openDialog(controller, { kind: "report", target: { context: "profile", name: user.name, userId: user.id } })}
            >
              <Icon name="flag" size={18} /> {t("chat.report_user")}
            </button>
          </div>
        </div>
      </div>
    </section>
  );
}
