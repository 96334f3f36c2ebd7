// "Block <name>?": a block is a big step for the other person (they can no longer reach me), so it
// is confirmed once, with what it does in plain words.
import { useCallback, useId, useRef, useState } from "react";
import useFocusTrap from "../chat/useFocusTrap.ts";
import DialogActions from "./DialogActions.tsx";
import SafetyStyles from "./SafetyStyles.tsx";

export interface BlockConfirmProps {
  name: string;
  /** Does the block; resolves false when it failed (the caller has said why). */
  onConfirm(): Promise<boolean>;
  onClose(): void;
}

export default function BlockConfirm({ name, onConfirm, onClose }: BlockConfirmProps) {
  const [busy, setBusy] = useState(false);
  const ref = useRef<HTMLDivElement>(null);
  const id = useId();
  const closeRef = useRef(onClose);
  closeRef.current = onClose;
  const close = useCallback(() => closeRef.current(), []);
  useFocusTrap(ref, true, close);

  const confirm = async () => {
    setBusy(true);
    const ok = await onConfirm();
    setBusy(false);
    if (ok) onClose();
  };

  return (
    <div className="safety-backdrop" onClick={(e) => e.target === e.currentTarget && close()}>
      <div className="safety-modal block-confirm" role="alertdialog" aria-modal="true" aria-labelledby={`${id}-title`} aria-describedby={`${id}-text`} ref={ref}>
        <SafetyStyles />
        <h2 id={`${id}-title`}>Block {name}?</h2>
        <p id={`${id}-text`}>They won't be able to message or call you, and you won't see each other.</p>
        <DialogActions dismissLabel="Cancel" onDismiss={close} label="Block" busyLabel="Blocking..." busy={busy} tone="danger" onConfirm={() => void confirm()} />
      </div>
    </div>
  );
}
