// Calls and Video Roulette are for adults who said so. Accounts made before the 18+ box existed
// confirm once, through AdultConfirmModal (mounted in ChatApp), before their first call or session.
import { errorText } from "../lib/api.ts";
import type { ChatController } from "../lib/controller.ts";
import { t } from "../i18n.ts";

/** True at once for a confirmed adult; otherwise asks, and answers true only once confirmed. */
export function ensureAdult(chat: ChatController): Promise<boolean> {
  const { store } = chat;
  if (store.me.value.adult_confirmed_at) return Promise.resolve(true);
  return new Promise((resolve) => {
    // A second request while the first is open takes its place; the first one is answered no.
    store.adultPrompt.value?.(false);
    store.adultPrompt.value = (confirmed) => {
      store.adultPrompt.value = null;
      resolve(confirmed);
    };
  });
}

/** Records the confirmation on the server and in the store; false (with a toast) if it failed. */
export async function confirmAdult(chat: ChatController): Promise<boolean> {
  try {
    const { user } = await chat.api.confirmAdult();
    chat.store.me.value = user;
    return true;
  } catch (error) {
    chat.notify.error(errorText(error, t("safety.confirm_failed")));
    return false;
  }
}
