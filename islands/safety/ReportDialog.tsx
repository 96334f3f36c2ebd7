// The report dialog, shared by the chat, calls and Video Roulette: a reason from the fixed list,
// optional details, then (once the report is stored) an offer to block the same person in the
// same dialog, because that is the moment someone wants it.
import { useCallback, useId, useRef, useState } from "react";
import { errorText, type ReportContext, type ReportReason } from "../lib/api.ts";
import type { BackendLabel } from "../nudity/backends.ts";
import { useChat } from "../chat/context.ts";
import useFocusTrap from "../chat/useFocusTrap.ts";
import DialogActions from "./DialogActions.tsx";
import SafetyStyles from "./SafetyStyles.tsx";

export interface ReportTarget {
  context: ReportContext;
  /** Shown in the title; a roulette partner is "Stranger". */
  name: string;
  userId?: number;
  rouletteId?: string;
  messageId?: number;
  /** A still of the partner's video (call and roulette reports). */
  still?: Blob | null;
  /** What ran the nudity check on this device when the still was taken (roulette), if one ran. */
  stillBackend?: BackendLabel | null;
}

export interface ReportDialogProps {
  target: ReportTarget;
  onClose(): void;
  onBlocked?(): void;
}

export const REPORT_REASONS: { value: ReportReason; label: string }[] = [
  { value: "sexual_content", label: "Sexual content or nudity" },
  { value: "underage", label: "Appears to be under 18" },
  { value: "harassment", label: "Harassment or hate" },
  { value: "spam", label: "Spam or scam" },
  { value: "violence", label: "Violence or threats" },
  { value: "other", label: "Other" },
];

export const DETAILS_MAX = 1000;
export const REPORT_THANKS = "Thanks. Our moderators will review your report.";

type Step = "form" | "sending" | "offer" | "blocking";

export default function ReportDialog({ target, onClose, onBlocked }: ReportDialogProps) {
  const controller = useChat();
  const [reason, setReason] = useState<ReportReason | null>(null);
  const [details, setDetails] = useState("");
  const [step, setStep] = useState<Step>("form");
  const [error, setError] = useState<string | null>(null);
  const ref = useRef<HTMLDivElement>(null);
  const id = useId();
  // Callers pass inline functions; the trap must not restart (and refocus) on every render.
  const closeRef = useRef(onClose);
  closeRef.current = onClose;
  const close = useCallback(() => closeRef.current(), []);
  // Off while a request runs; on again for the offer, whose first control then takes focus.
  useFocusTrap(ref, step === "form" || step === "offer", close);

  const send = async () => {
    if (!reason) return;
    setStep("sending");
    setError(null);
    try {
      await controller.api.report({
        reportedUserId: target.rouletteId ? undefined : target.userId,
        rouletteId: target.rouletteId,
        context: target.context,
        reason,
        details: details.trim() || undefined,
        messageId: target.messageId,
        evidence: target.still ?? null,
        stillBackend: (target.still && target.stillBackend) || undefined,
      });
      controller.notify.success(REPORT_THANKS);
      // Someone I already blocked needs no offer to block them.
      if (target.userId !== undefined && controller.store.blocked.value[target.userId]) onClose();
      else setStep("offer");
    } catch (failure) {
      setError(errorText(failure, "The report could not be sent. Please try again."));
      setStep("form");
    }
  };

  const block = async () => {
    setStep("blocking");
    setError(null);
    try {
      if (target.rouletteId) await controller.api.block({ rouletteId: target.rouletteId });
      else if (target.userId !== undefined) await controller.api.block({ userId: target.userId });
      onBlocked?.();
      onClose();
    } catch (failure) {
      setError(errorText(failure, "Could not block. Please try again."));
      setStep("offer");
    }
  };

  const offering = step === "offer" || step === "blocking";
  const title = offering ? `Block ${target.name}?` : `Report ${target.name}`;
  return (
    <div className="safety-backdrop" onClick={(e) => e.target === e.currentTarget && onClose()}>
      <div className="safety-modal report-dialog" role="dialog" aria-modal="true" aria-labelledby={`${id}-title`} ref={ref}>
        <SafetyStyles />
        <h2 id={`${id}-title`}>{title}</h2>
        {offering ? (
          <>
            <p>
              Your report was sent. Blocking also means {target.name} can't message or call you, and you won't see each other.
            </p>
            <DialogActions
              error={error}
              dismissLabel="Not now"
              onDismiss={onClose}
              label="Block"
              busyLabel="Blocking..."
              busy={step === "blocking"}
              tone="danger"
              onConfirm={() => void block()}
            />
          </>
        ) : (
          <form
            onSubmit={(e) => {
              e.preventDefault();
              if (reason && step === "form") void send();
            }}
          >
            <fieldset>
              <legend>Why are you reporting {target.name}?</legend>
              {REPORT_REASONS.map((r) => (
                <label key={r.value} className="safety-choice">
                  <input
                    type="radio"
                    name={`${id}-reason`}
                    value={r.value}
                    checked={reason === r.value}
                    onChange={() => setReason(r.value)}
                  />
                  <span>{r.label}</span>
                </label>
              ))}
            </fieldset>
            <label className="safety-field" htmlFor={`${id}-details`}>
              <span>Details (optional)</span>
              <textarea
                id={`${id}-details`}
                value={details}
                maxLength={DETAILS_MAX}
                rows={3}
                onChange={(e) => setDetails(e.target.value.slice(0, DETAILS_MAX))}
              />
              <span className="safety-counter" aria-live="polite">
                {details.length}/{DETAILS_MAX}
              </span>
            </label>
            <DialogActions
              error={error}
              dismissLabel="Cancel"
              onDismiss={onClose}
              label="Send report"
              busyLabel="Sending..."
              busy={step === "sending"}
              tone="primary"
              ready={reason !== null}
            />
          </form>
        )}
      </div>
    </div>
  );
}
