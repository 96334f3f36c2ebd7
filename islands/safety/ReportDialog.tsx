// The report dialog, shared by the chat, calls and Video Roulette: a reason from the fixed list,
// optional details, then (once the report is stored) an offer to block the same person in the
// same dialog, because that is the moment someone wants it.
import { useCallback, useId, useRef, useState } from "react";
import { errorText, type ReportContext, type ReportReason } from "../lib/api.ts";
import type { BackendLabel } from "../nudity/backends.ts";
import { useChat } from "../chat/context.ts";
import useFocusTrap from "../chat/useFocusTrap.ts";
import { t } from "../i18n.ts";
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

export const REPORT_REASONS: readonly ReportReason[] = ["sexual_content", "underage", "harassment", "spam", "violence", "other"];

export const DETAILS_MAX = 1000;
/** Read when shown, so it is in the page's language. */
export const reportThanks = (): string => t("safety.report_thanks");

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
      controller.notify.success(reportThanks());
      // Someone I already blocked needs no offer to block them.
      if (target.userId !== undefined && controller.store.blocked.value[target.userId]) onClose();
      else setStep("offer");
    } catch (failure) {
      setError(errorText(failure, t("safety.report_failed")));
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
      setError(errorText(failure, t("safety.block_failed")));
      setStep("offer");
    }
  };

  const offering = step === "offer" || step === "blocking";
  const title = offering ? t("safety.block_title", { name: target.name }) : t("safety.report_title", { name: target.name });
  return (
    <div className="safety-backdrop" onClick={(e) => e.target === e.currentTarget && onClose()}>
      <div className="safety-modal report-dialog" role="dialog" aria-modal="true" aria-labelledby={`${id}-title`} ref={ref}>
        <SafetyStyles />
        <h2 id={`${id}-title`}>{title}</h2>
        {offering ? (
          <>
            <p>{t("safety.report_sent_offer", { name: target.name })}</p>
            <DialogActions
              error={error}
              dismissLabel={t("safety.not_now")}
              onDismiss={onClose}
              label={t("safety.block")}
              busyLabel={t("safety.blocking")}
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
              <legend>{t("safety.report_why", { name: target.name })}</legend>
              {REPORT_REASONS.map((r) => (
                <label key={r} className="safety-choice">
                  <input type="radio" name={`${id}-reason`} value={r} checked={reason === r} onChange={() => setReason(r)} />
                  <span>{t(`safety.reason_${r}`)}</span>
                </label>
              ))}
            </fieldset>
            <label className="safety-field" htmlFor={`${id}-details`}>
              <span>{t("safety.details")}</span>
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
              dismissLabel={t("safety.cancel")}
              onDismiss={onClose}
              label={t("safety.send_report")}
              busyLabel={t("safety.sending")}
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
