// My avatar with upload/change and delete; both show a loading state while they run.
import { useSignals } from "@preact/signals-react/runtime";
import { useRef, useState } from "react";
import { deleteAvatar, uploadAvatar } from "../lib/account.ts";
import Avatar from "./Avatar.tsx";
import { useChat } from "./context.ts";
import Icon from "./icons.tsx";
import { t } from "../i18n.ts";

export default function AvatarEditor() {
  useSignals();
  const controller = useChat();
  const me = controller.store.me.value;
  const [busy, setBusy] = useState(false);
  const input = useRef<HTMLInputElement>(null);

  const run = async (work: () => Promise<unknown>) => {
    setBusy(true);
    try {
      await work();
    } finally {
      setBusy(false);
    }
  };

  return (
    <div className="avatar-editor card">
      <div className={`avatar-editor-picture${busy ? " is-busy" : ""}`} aria-busy={busy}>
        <Avatar name={me.name} url={me.avatar_url} size="xl" />
        {busy && <span className="spinner" role="status" aria-label={t("common.loading")} />}
      </div>
      <div className="avatar-editor-actions">
        <input
          ref={input}
          type="file"
          accept="image/jpeg,image/png,image/gif,image/webp"
          className="visually-hidden"
          tabIndex={-1}
          aria-hidden="true"
          onChange={(e) => {
            const file = e.target.files?.[0];
            e.target.value = "";
            if (file) void run(() => uploadAvatar(controller, file));
          }}
        />
        <button type="button" className="button primary" disabled={busy} onClick={() => input.current?.click()}>
          <Icon name="camera" size={18} /> {me.avatar_url ? t("chat.avatar_change") : t("chat.avatar_upload")}
        </button>
        {me.avatar_url && (
          <button type="button" className="button danger-outline" disabled={busy} onClick={() => void run(() => deleteAvatar(controller))}>
            <Icon name="trash" size={18} /> {t("chat.avatar_delete")}
          </button>
        )}
        <p className="muted small">{t("chat.avatar_hint")}</p>
      </div>
    </div>
  );
}
