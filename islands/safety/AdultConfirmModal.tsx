// "Confirm your age": shown by ensureAdult() before a call or a roulette session for an account
// that has not yet said it is 18 or older (AdultGate mounts it). Cancel answers no.
import { useCallback, useId, useRef, useState } from "react";
import { useChat } from "../chat/context.ts";
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
        <h2 id={`${id}-title`}>Confirm your age</h2>
        <p id={`${id}-text`}>
          Video calls and Video Roulette are for adults only. Please confirm that you are 18 or older and accept the Terms.
        </p>
        <form
          onSubmit={(e) => {
            e.preventDefault();
            if (ticked && !saving) void confirm();
          }}
        >
          <label className="safety-choice">
            <input type="checkbox" checked={ticked} onChange={(e) => setTicked(e.target.checked)} />
            <span>
              I am 18 or older and I accept the{" "}
              <a href="/terms" target="_blank" rel="noopener">
                Terms
              </a>
            </span>
          </label>
          <DialogActions dismissLabel="Cancel" onDismiss={cancel} label="Confirm" busyLabel="Confirming..." busy={saving} tone="primary" ready={ticked} />
        </form>
      </div>
    </div>
  );
}
