// "Block <name>?": a block is a big step for the other person (they can no longer reach me), so it
// is confirmed once, with what it does in plain words.
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
      title={`Block ${name}?`}
      text="They won't be able to message or call you, and you won't see each other."
      dismissLabel="Cancel"
      label="Block"
      busyLabel="Blocking..."
      onConfirm={onConfirm}
      onClose={onClose}
    />
  );
}
