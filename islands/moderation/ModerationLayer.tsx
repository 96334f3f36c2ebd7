// Puts a moderator's actions on the chat screen: once banned, the ban page instead of everything
// (calls and Video Roulette unmount with the rest); otherwise the screen, with the warning modal
// on top while a warning waits.
import { useSignals } from "@preact/signals-react/runtime";
import { lazy, Suspense, type ReactNode } from "react";
import { useChat } from "../chat/context.ts";
import BanPage from "./BanPage.tsx";

const WarningModal = lazy(() => import("./WarningModal.tsx"));

export default function ModerationLayer({ children }: { children: ReactNode }) {
  useSignals();
  const { store } = useChat();
  const banned = store.banned.value;
  if (banned) return <BanPage notice={banned.notice} />;
  return (
    <>
      {children}
      {store.warnings.value.length > 0 && (
        <Suspense fallback={null}>
          <WarningModal />
        </Suspense>
      )}
    </>
  );
}
