// What every console page gets besides its own data.
import type { PageInfo } from "../page-info.ts";
import type { Viewer } from "./access.tsx";

export interface ModView {
  page: PageInfo;
  viewer: Viewer;
  /** The session's CSRF token, for the hidden field of every form. */
  csrf: string;
  now: number;
  /** What the last action did, shown once. */
  flash: string | null;
  /** Why the form just sent was refused; the page answers with its status. */
  error: string | null;
  /** What the refused form carried, shown again so that nothing typed is lost. */
  posted?: URLSearchParams;
}
