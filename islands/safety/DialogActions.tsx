// The foot of every safety dialog: the last failure, if any, then a way out and the main action,
// which names what it is doing while its request runs so a second press is not needed.
export interface DialogActionsProps {
  /** Why the last attempt failed; shown above the buttons and read out at once. */
  error?: string | null;
  dismissLabel: string;
  onDismiss(): void;
  label: string;
  busyLabel: string;
  busy: boolean;
  /** Danger for a block, primary for everything else. */
  tone: "primary" | "danger";
  /** Without it the main button submits the dialog's form. */
  onConfirm?(): void;
  /** False while the form still lacks an answer (no reason chosen, box not ticked). */
  ready?: boolean;
}

export default function DialogActions({ error, dismissLabel, onDismiss, label, busyLabel, busy, tone, onConfirm, ready = true }: DialogActionsProps) {
  return (
    <>
      {error && (
        <p className="safety-error" role="alert">
          {error}
        </p>
      )}
      <div className="safety-actions">
        <button type="button" className="safety-button" onClick={onDismiss}>
          {dismissLabel}
        </button>
        <button
          type={onConfirm ? "button" : "submit"}
          className={`safety-button is-${tone}`}
          disabled={!ready || busy}
          onClick={onConfirm}
        >
          {busy ? busyLabel : label}
        </button>
      </div>
    </>
  );
}
