// "Confirm your age": shown by ensureAdult() before a call or a roulette session for an account
// that has not yet said it is 18 or older (AdultGate mounts it). Cancel answers no.
import { useCallback, useId, useRef, useState } from "react";
import { useChat } from "../chat/context.ts";
import { t } from "../i18n.ts";
import useFocusTrap from "../chat/useFocusTrap.ts";
import { confirmAdult } from "./adult-gate.ts";
import DialogActions from "./DialogActions.tsx";
import SafetyStyles from "./SafetyStyles.tsx";

export default function AdultConfirmModal({ answer }: { answer: (confirmed: boolean) => void }) {
  const controller = useChat();
  const [ticked, setTicked] = useState(false);
  const [saving, setSaving] = useState(false);
  const ref = useRef<HTMLDivElement>(null);
  const id = useId();
  const answerRef = useRef(answer);
  answerRef.current = answer;
  const cancel = useCallback(() => answerRef.current(false), []);
  useFocusTrap(ref, true, cancel);

  const confirm = async () => {
    setSaving(true);
    const ok = await confirmAdult(controller);
    setSaving(false);
    if (ok) answer(true);
  };

  return (
    <div className="safety-backdrop" onClick={(e) => e.target === e.currentTarget && cancel()}>
      <div className="safety-modal adult-confirm" role="dialog" aria-modal="true" aria-labelledby={`${id}-title`} aria-describedby={`${id}-text`} ref={ref}>
        <SafetyStyles />
        <h2 id={`${id}-title`}>{t("safety.adult_title")}</h2>
        <p id={`${id}-text`}>{t("safety.adult_text")}</p>
        <form
          onSubmit={(e) => {
            e.preventDefault();
            if (ticked && !saving) void confirm();
          }}
        >
          <label className="safety-choice">
            <input type="checkbox" checked={ticked} onChange={(e) => setTicked(e.target.checked)} />
            <span>
              {`${t("auth.adult_before")} `}
              <a href="/terms" target="_blank" rel="noopener">
                {t("auth.adult_terms")}
              </a>
            </span>
          </label>
          <DialogActions dismissLabel={t("safety.cancel")} onDismiss={cancel} label={t("safety.confirm")} busyLabel={t("safety.confirming")} busy={saving} tone="primary" ready={ticked} />
        </form>
      </div>
    </div>
  );
}
