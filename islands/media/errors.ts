// What a person reads when the camera or microphone cannot be opened (spec section 8 "Camera
// and microphone"). The call screens and Video Roulette word the same failures differently.
import { t } from "../i18n.ts";

/**
 * Shown with window.alert when the browser has no navigator.mediaDevices (spec section 5). The spec
 * fixes it in Russian for everyone, so it is not in the catalogues.
 */
export const UNSUPPORTED_BROWSER_ALERT =
  "Ваш браузер не поддерживает видеозвонки. Пожалуйста, используйте современный браузер (Chrome, Firefox, Safari или Edge).";

export type MediaFailure = "denied" | "not-found" | "in-use" | "other";

/** Sorts a getUserMedia rejection; older browsers used the names after the first of each group. */
export function classifyMediaError(error: unknown): MediaFailure {
  const name = error instanceof Error || isDomLike(error) ? error.name : "";
  if (["NotAllowedError", "PermissionDeniedError", "SecurityError"].includes(name)) return "denied";
  if (["NotFoundError", "DevicesNotFoundError"].includes(name)) return "not-found";
  if (["NotReadableError", "TrackStartError"].includes(name)) return "in-use";
  return "other";
}

function isDomLike(value: unknown): value is { name: string; message?: string } {
  return typeof value === "object" && value !== null && typeof (value as { name?: unknown }).name === "string";
}

function messageOf(error: unknown): string {
  if (error instanceof Error || isDomLike(error)) return error.message || error.name || t("call.media_error_unknown");
  return String(error);
}

/** The alert of the call screens. */
export function callMediaErrorText(error: unknown): string {
  switch (classifyMediaError(error)) {
    case "denied":
      return t("call.media_denied");
    case "not-found":
      return t("call.media_not_found");
    case "in-use":
      return t("call.media_in_use");
    case "other":
      return t("call.media_error", { message: messageOf(error) });
  }
}

/** The error line of Video Roulette. */
export function rouletteMediaErrorText(error: unknown): string {
  switch (classifyMediaError(error)) {
    case "denied":
      return t("roulette.media_denied");
    case "not-found":
      return t("roulette.media_not_found");
    case "in-use":
      return t("roulette.media_in_use");
    case "other":
      return t("roulette.media_required");
  }
}
