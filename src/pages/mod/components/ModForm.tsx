// A console form: POST with the session's CSRF token and the page to come back to.
import type { ReactNode } from "react";
import { CSRF_FIELD } from "../csrf.ts";
import type { ModView } from "../view.ts";

export function ModForm({ view, action, back, className, children }: { view: ModView; action: string; back: string; className?: string; children: ReactNode }) {
  return (
    <form method="post" action={action} className={className ?? "mod-form"}>
      <input type="hidden" name={CSRF_FIELD} value={view.csrf} />
      <input type="hidden" name="back" value={back} />
      {children}
    </form>
  );
}
