// A console form: POST with the session's CSRF token and the page to come back to.
import type { ReactNode } from "react";
import { CSRF_FIELD } from "../csrf.ts";
import type { ModView } from "../view.ts";

interface ModFormProps {
  view: ModView;
  action: string;
  back: string;
  className?: string;
  id?: string;
  children: ReactNode;
}

export function ModForm({ view, action, back, className, id, children }: ModFormProps) {
  return (
    <form method="post" action={action} className={className ?? "mod-form"} id={id}>
      <input type="hidden" name={CSRF_FIELD} value={view.csrf} />
      <input type="hidden" name="back" value={back} />
      {children}
    </form>
  );
}
