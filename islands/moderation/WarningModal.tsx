// A moderator's warning (issue 8, "Warn"): a modal that only "I understand" closes, because the
// user must have read the reason (a statement of reasons under the DSA). Several wait in a queue
// and show one after another. Loaded only when a warning is waiting.
import { useSignals } from "@preact/signals-react/runtime";
import { useCallback, useEffect, useId, useRef, useState } from "react";
import { useChat } from "../chat/context.ts";
import useFocusTrap from "../chat/useFocusTrap.ts";
import { t } from "../i18n.ts";
import { acknowledgeWarning } from "../lib/moderation.ts";
import SafetyStyles from "../safety/SafetyStyles.tsx";

export default function WarningModal() {
  useSignals();
  const controller = useChat();
  const queue = controller.store.warnings.value;
  const warning = queue[0];
  const [busy, setBusy] = useState(false);
  const ref = useRef<HTMLDivElement>(null);
  const id = useId();
  // Escape does nothing: only acknowledging closes it.
  const ignore = useCallback(() => {}, []);
  useFocusTrap(ref, warning !== undefined, ignore);
  // The trap focuses the first control (the Terms link); the answer expected is the button.
  const action = useRef<HTMLButtonElement>(null);
  useEffect(() => action.current?.focus(), [warning?.id]);
  if (!warning) return null;

  const acknowledge = async () => {
    setBusy(true);
    await acknowledgeWarning(controller, warning.id);
    setBusy(false);
  };

  return (
    <div className="safety-backdrop">
      <div className="safety-modal warning-modal" role="alertdialog" aria-modal="true" aria-labelledby={`${id}-title`} aria-describedby={`${id}-reason`} ref={ref}>
        <SafetyStyles />
        <h2 id={`${id}-title`}>{t("mod.warning_title")}</h2>
        <p id={`${id}-reason`} className="warning-reason">
          {warning.reason}
        </p>
        <p className="warning-rules">
          {`${t("mod.warning_before")} `}
          <a href="/terms" target="_blank" rel="noopener">
            {t("mod.warning_terms")}
          </a>
          {t("mod.warning_after")}
        </p>
        {queue.length > 1 && <p className="warning-more">{t("mod.warning_more", { count: queue.length - 1 })}</p>}
        <div className="safety-actions">
          <button type="button" ref={action} className="safety-button is-primary" disabled={busy} onClick={() => void acknowledge()}>
            {busy ? t("mod.saving") : t("mod.understand")}
          </button>
        </div>
      </div>
    </div>
  );
}
