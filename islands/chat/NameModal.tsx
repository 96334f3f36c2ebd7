// The simple modal that edits only the display name; Save is disabled while the name is empty,
// unchanged or one the server would refuse.
import { useSignals } from "@preact/signals-react/runtime";
import { useId, useRef, useState } from "react";
import { saveProfile } from "../lib/account.ts";
import { useChat } from "./context.ts";
import NameField, { nameProblem } from "./NameField.tsx";
import useFocusTrap from "./useFocusTrap.ts";
import { t } from "../i18n.ts";

export default function NameModal({ onClose }: { onClose: () => void }) {
  useSignals();
  const controller = useChat();
  const me = controller.store.me.value;
  const [name, setName] = useState(me.name);
  const [saving, setSaving] = useState(false);
  const ref = useRef<HTMLDivElement>(null);
  const id = useId();
  useFocusTrap(ref, true, onClose);
  const trimmed = name.trim();
  const disabled = saving || !trimmed || trimmed === me.name || nameProblem(name) !== null;

  const save = async () => {
    setSaving(true);
    const ok = await saveProfile(controller, { name: trimmed });
    setSaving(false);
    if (ok) onClose();
  };

  return (
    <div className="modal-backdrop" onClick={(e) => e.target === e.currentTarget && onClose()}>
      <div className="modal" role="dialog" aria-modal="true" aria-labelledby={`${id}-title`} ref={ref}>
        <h2 id={`${id}-title`}>{t("chat.edit_name")}</h2>
        <form
          onSubmit={(e) => {
            e.preventDefault();
            if (!disabled) void save();
          }}
        >
          <NameField id={`${id}-name`} value={name} onChange={setName} />
          <div className="modal-actions">
            <button type="button" className="button" onClick={onClose}>
              {t("chat.cancel")}
            </button>
            <button type="submit" className="button primary" disabled={disabled}>
              {t("chat.save")}
            </button>
          </div>
        </form>
      </div>
    </div>
  );
}
