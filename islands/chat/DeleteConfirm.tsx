// "Delete for everyone?": the message goes from both screens, so it is confirmed once.
import ConfirmDialog from "../safety/ConfirmDialog.tsx";
import { t } from "../i18n.ts";

export default function DeleteConfirm({ onConfirm, onClose }: { onConfirm(): Promise<boolean>; onClose(): void }) {
  return (
    <ConfirmDialog
      className="delete-confirm"
      title={t("chat.delete_title")}
      text={t("chat.delete_text")}
      dismissLabel={t("chat.cancel")}
      label={t("chat.action_delete")}
      busyLabel={t("chat.deleting")}
      onConfirm={onConfirm}
      onClose={onClose}
      closeOnFailure
    />
  );
}
