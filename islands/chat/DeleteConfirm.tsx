// "Delete for everyone?": the message goes from both screens, so it is confirmed once.
import { useCallback, useId, useRef, useState } from "react";
import DialogActions from "../safety/DialogActions.tsx";
import SafetyStyles from "../safety/SafetyStyles.tsx";
import useFocusTrap from "./useFocusTrap.ts";
import { t } from "../i18n.ts";

export default function DeleteConfirm({ onConfirm, onClose }: { onConfirm(): Promise<boolean>; onClose(): void }) {
  const [busy, setBusy] = useState(false);
  const ref = useRef<HTMLDivElement>(null);
  const id = useId();
  const closeRef = useRef(onClose);
  closeRef.current = onClose;
  const close = useCallback(() => closeRef.current(), []);
  useFocusTrap(ref, true, close);
  const confirm = async () => {
    setBusy(true);
    await onConfirm();
    setBusy(false);
    onClose();
  };
  return (
    <div className="safety-backdrop" onClick={(e) => e.target === e.currentTarget && close()}>
      <div className="safety-modal delete-confirm" role="alertdialog" aria-modal="true" aria-labelledby={`${id}-title`} aria-describedby={`${id}-text`} ref={ref}>
        <SafetyStyles />
        <h2 id={`${id}-title`}>{t("chat.delete_title")}</h2>
        <p id={`${id}-text`}>{t("chat.delete_text")}</p>
        <DialogActions dismissLabel={t("chat.cancel")} onDismiss={close} label={t("chat.action_delete")} busyLabel={t("chat.deleting")} busy={busy} tone="danger" onConfirm={() => void confirm()} />
      </div>
    </div>
  );
}
