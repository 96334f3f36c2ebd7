// "Block <name>?": a block is a big step for the other person (they can no longer reach me), so it
// is confirmed once, with what it does in plain words.
import { t } from "../i18n.ts";
import ConfirmDialog from "./ConfirmDialog.tsx";

export interface BlockConfirmProps {
  name: string;
  /** Does the block; resolves false when it failed (the caller has said why). */
  onConfirm(): Promise<boolean>;
  onClose(): void;
}

export default function BlockConfirm({ name, onConfirm, onClose }: BlockConfirmProps) {
  return (
    <ConfirmDialog
      className="block-confirm"
      title={t("safety.block_title", { name })}
      text={t("safety.block_text")}
      dismissLabel={t("safety.cancel")}
      label={t("safety.block")}
      busyLabel={t("safety.blocking")}
      onConfirm={onConfirm}
      onClose={onClose}
    />
  );
}
