// Settings → Blocked people: whom I blocked, newest first, each with Unblock. Strangers blocked in
// Video Roulette are never named, so they are only counted.
import { t } from "../i18n.ts";
import { useSignals } from "@preact/signals-react/runtime";
import { useEffect, useState } from "react";
import Avatar from "../chat/Avatar.tsx";
import { useChat } from "../chat/context.ts";
import { errorText, type BlockList } from "../lib/api.ts";
import { longDate } from "../lib/format.ts";
import { unblockUser } from "../lib/safety.ts";
import SettingsScreen from "./SettingsScreen.tsx";

export function strangersLine(count: number): string {
  return t("safety.blocked_strangers", { count });
}

export default function BlockedPeople() {
  useSignals();
  const controller = useChat();
  const [list, setList] = useState<BlockList | null>(null);
  const [error, setError] = useState<string | null>(null);
  // Any block or unblock, in this tab or another (block_changed), refreshes the list.
  const changes = controller.store.blocked.value;

  useEffect(() => {
    let live = true;
    controller.api.blocks().then(
      (next) => {
        if (!live) return;
        setList(next);
        setError(null);
      },
      (failure: unknown) => {
        if (live) setError(errorText(failure, t("safety.blocked_load_failed")));
      },
    );
    return () => {
      live = false;
    };
  }, [controller, changes]);

  const unblock = async (user: BlockList["users"][number]) => {
    if (!(await unblockUser(controller, user))) return;
    setList((prev) => prev && { ...prev, users: prev.users.filter((u) => u.id !== user.id) });
  };

  return (
    <SettingsScreen id="blocked-people-heading" title={t("chat.settings_blocked")}>
      <div className="card blocked-people">
        {error && (
          <p className="form-error" role="alert">
            {error}
          </p>
        )}
        {!list && !error && <p className="muted">{t("common.loading")}</p>}
        {list && list.users.length === 0 && <p className="muted blocked-empty">{t("safety.blocked_none")}</p>}
        {list && list.users.length > 0 && (
          <ul className="blocked-list">
            {list.users.map((user) => (
              <li key={user.id} className="blocked-row">
                <Avatar name={user.name} url={user.avatar_url} />
                <span className="blocked-text">
                  <span className="blocked-name">{user.name}</span>
                  <span className="muted small">{t("safety.blocked_on", { date: longDate(user.blocked_at) })}</span>
                </span>
                <button type="button" className="button small" aria-label={t("safety.unblock_name", { name: user.name })} onClick={() => void unblock(user)}>
                  {t("chat.unblock")}
                </button>
              </li>
            ))}
          </ul>
        )}
        {list && list.strangers > 0 && <p className="muted small blocked-strangers">{strangersLine(list.strangers)}</p>}
      </div>
    </SettingsScreen>
  );
}
