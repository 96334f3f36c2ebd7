// The signed-in user's own account: profile edits, avatar, logout (spec sections 2, 4, 5 and 8).
import { t } from "../i18n.ts";
import { ApiError, errorText, type ProfileChanges } from "./api.ts";
import type { ChatController } from "./controller.ts";
import { avatarProblem } from "./files.ts";
import { getRealtime } from "./socket.ts";
import { forgetSession } from "./storage.ts";

/** Saves the profile; answers true when saved. An empty name only leaves edit mode (no call). */
export async function saveProfile(c: ChatController, changes: ProfileChanges): Promise<boolean> {
  const name = changes.name.trim();
  if (!name) return true;
  try {
    const { user } = await c.api.updateProfile({ ...changes, name });
    c.store.me.value = user;
    c.notify.success(t("common.profile_updated"));
    return true;
  } catch (error) {
    // The server's reason for the name ("Names cannot use the word ...") says more than its summary.
    const nameReason = error instanceof ApiError ? error.fields?.name : undefined;
    c.notify.error(nameReason ?? errorText(error, t("common.profile_failed")));
    return false;
  }
}

/** Checks and uploads an avatar; problems and failures are shown in an alert. */
export async function uploadAvatar(c: ChatController, file: File): Promise<void> {
  const problem = avatarProblem(file);
  if (problem) {
    window.alert(problem);
    return;
  }
  try {
    const { avatar_url } = await c.api.uploadAvatar(file);
    c.store.me.value = { ...c.store.me.value, avatar_url };
  } catch (error) {
    window.alert(errorText(error, t("common.avatar_upload_failed")));
  }
}

/** Deletes the avatar after the spec's confirmation; answers false when the user declined. */
export async function deleteAvatar(c: ChatController): Promise<boolean> {
  if (!window.confirm(t("chat.avatar_delete_confirm"))) return false;
  try {
    await c.api.deleteAvatar();
    c.store.me.value = { ...c.store.me.value, avatar_url: null };
  } catch (error) {
    window.alert(errorText(error, t("common.avatar_delete_failed")));
  }
  return true;
}

/** How long the "Logged out successfully" toast stays on screen before leaving the page. */
const LEAVE_DELAY_MS = 800;

/**
 * Logs out after the confirmation. Token and user id are cleared and the browser ends on the
 * signed-out landing page even when the server call fails (spec section 4).
 */
export async function logout(c: ChatController): Promise<void> {
  if (!window.confirm(t("chat.logout_confirm"))) return;
  const socket = getRealtime();
  socket?.send("user_logout", {});
  // Closed before the server revokes the session: a revoked socket would send the page away
  // before the confirmation toast shows.
  socket?.disconnect();
  let signedOut = true;
  try {
    await c.api.logout();
  } catch (error) {
    signedOut = false;
    // Expected when the network is gone: one line, no stack trace.
    console.warn(`Logout call failed (${String(error)}); signing out through the logout form`);
  }
  forgetSession();
  c.notify.success(t("common.logged_out"));
  setTimeout(() => (signedOut ? window.location.assign("/") : postLogoutForm()), LEAVE_DELAY_MS);
}

/**
 * The session cookie is httpOnly, so only the server can remove it: the no-JavaScript logout form
 * (POST /auth/logout, same-origin only) revokes the session if it can, expires the cookie and
 * answers 303 to "/", the landing page. A top-level form post, unlike fetch, still works when the
 * API call failed for its own reasons (a revoked session, a proxy error), and a POST cannot be
 * triggered by another site's link.
 */
function postLogoutForm(): void {
  const form = document.createElement("form");
  form.method = "POST";
  form.action = "/auth/logout";
  form.hidden = true;
  document.body.append(form);
  form.submit();
}
