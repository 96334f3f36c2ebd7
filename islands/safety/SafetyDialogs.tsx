// Mounted once in ChatApp: the report dialog and the block confirmation for whatever the chat
// screen asked (store.safetyDialog). Their code loads the first time one opens.
import { t } from "../i18n.ts";
import { useSignals } from "@preact/signals-react/runtime";
import { lazy, Suspense } from "react";
import { useChat } from "../chat/context.ts";
import { applyBlock, blockUser } from "../lib/safety.ts";

const ReportDialog = lazy(() => import("./ReportDialog.tsx"));
const BlockConfirm = lazy(() => import("./BlockConfirm.tsx"));

export default function SafetyDialogs() {
  useSignals();
  const controller = useChat();
  const dialog = controller.store.safetyDialog.value;
  if (!dialog) return null;
  const close = () => {
    controller.store.safetyDialog.value = null;
  };
  return (
    <Suspense fallback={null}>
      {dialog.kind === "report" ? (
        <ReportDialog
          target={dialog.target}
          onClose={close}
          onBlocked={() => {
            const { userId } = dialog.target;
            if (userId === undefined) return;
            applyBlock(controller, userId, true);
            controller.notify.success(t("safety.you_blocked", { name: dialog.target.name }));
          }}
        />
      ) : (
        <BlockConfirm name={dialog.user.name} onConfirm={() => blockUser(controller, dialog.user)} onClose={close} />
      )}
    </Suspense>
  );
}
