// Mounted once in ChatApp: shows the 18+ confirmation while ensureAdult() waits for an answer.
// The modal's code loads only then; almost every account confirmed at sign-up.
import { useSignals } from "@preact/signals-react/runtime";
import { lazy, Suspense } from "react";
import { useChat } from "../chat/context.ts";

const AdultConfirmModal = lazy(() => import("./AdultConfirmModal.tsx"));

export default function AdultGate() {
  useSignals();
  const answer = useChat().store.adultPrompt.value;
  if (!answer) return null;
  return (
    <Suspense fallback={null}>
      <AdultConfirmModal answer={answer} />
    </Suspense>
  );
}
