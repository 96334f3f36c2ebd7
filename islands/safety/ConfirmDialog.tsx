// A step that is confirmed once (blocking someone, deleting a message for everyone): a modal alert
// dialog with the focus kept inside, Escape or a click outside to dismiss, and a busy state while
// the step runs.
import { useCallback, useId, useRef, useState } from "react";
import useFocusTrap from "../chat/useFocusTrap.ts";
import DialogActions from "./DialogActions.tsx";
import SafetyStyles from "./SafetyStyles.tsx";

export interface ConfirmDialogProps {
  className: string;
  title: string;
  text: string;
  dismissLabel: string;
  label: string;
  busyLabel: string;
  /** Does the step; resolves false when it failed (the caller has said why). */
  onConfirm(): Promise<boolean>;
  onClose(): void;
  /** Closes after a failed step too (the default keeps the dialog open to try again). */
  closeOnFailure?: boolean;
}

export default function ConfirmDialog({ className, title, text, dismissLabel, label, busyLabel, onConfirm, onClose, closeOnFailure = false }: ConfirmDialogProps) {
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
    if (ok || closeOnFailure) onClose();
  };

  return (
    <div className="safety-backdrop" onClick={(e) => e.target === e.currentTarget && close()}>
      <div className={`safety-modal ${className}`} role="alertdialog" aria-modal="true" aria-labelledby={`${id}-title`} aria-describedby={`${id}-text`} ref={ref}>
        <SafetyStyles />
        <h2 id={`${id}-title`}>{title}</h2>
        <p id={`${id}-text`}>{text}</p>
        <DialogActions dismissLabel={dismissLabel} onDismiss={close} label={label} busyLabel={busyLabel} busy={busy} tone="danger" onConfirm={() => void confirm()} />
      </div>
    </div>
  );
}
