// What a person reads when the camera or microphone cannot be opened (spec section 8 "Camera
// and microphone"). The call screens and Video Roulette word the same failures differently.

/** Shown with window.alert when the browser has no navigator.mediaDevices (spec section 5). */
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
  if (error instanceof Error || isDomLike(error)) return error.message || error.name || "unknown error";
  return String(error);
}

/** The alert of the call screens. */
export function callMediaErrorText(error: unknown): string {
  switch (classifyMediaError(error)) {
    case "denied":
      return (
        "Camera and microphone access is blocked. To make video calls, allow access to the camera and " +
        "microphone for this site (the camera icon in the address bar or the site settings), then refresh the page."
      );
    case "not-found":
      return "Camera or microphone not found. Please check that they are connected and try again.";
    case "in-use":
      return "The camera or microphone is in use by another application. Close it and try again.";
    case "other":
      return `Media device access error: ${messageOf(error)}`;
  }
}

/** The error line of Video Roulette. */
export function rouletteMediaErrorText(error: unknown): string {
  switch (classifyMediaError(error)) {
    case "denied":
      return "Please allow camera and microphone access to use video chat";
    case "not-found":
      return "No camera or microphone found on this device";
    case "in-use":
      return "Camera or microphone is already in use by another application";
    case "other":
      return "Camera and microphone access required for video chat";
  }
}
