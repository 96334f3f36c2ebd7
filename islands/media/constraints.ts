// Camera and microphone requests (spec section 9 "Call video" and "Fallback stream"). The first
// request asks for HD with voice processing; a camera that cannot satisfy it (an old webcam, a
// driver that refuses 48 kHz) gets a second, modest request instead of no call at all.

export const CALL_MEDIA_CONSTRAINTS = {
  video: {
    width: { ideal: 1280, max: 1920 },
    height: { ideal: 720, max: 1080 },
    frameRate: { ideal: 30, max: 60 },
    facingMode: "user",
  },
  audio: {
    echoCancellation: true,
    noiseSuppression: true,
    autoGainControl: true,
    sampleRate: 48000,
  },
} as const satisfies MediaStreamConstraints;

/** Bare numbers are ideals in getUserMedia, so this never fails for being too demanding. */
export const FALLBACK_MEDIA_CONSTRAINTS = {
  video: { width: 640, height: 480, frameRate: 15, facingMode: "user" },
  audio: { echoCancellation: true, noiseSuppression: true, autoGainControl: true },
} as const satisfies MediaStreamConstraints;

/** Errors a second request cannot fix: asking again would only ask the user twice. */
const FINAL_ERRORS = new Set(["NotAllowedError", "PermissionDeniedError", "SecurityError", "AbortError"]);

export type GetUserMedia = (constraints: MediaStreamConstraints) => Promise<MediaStream>;

export function mediaSupported(nav: Pick<Navigator, "mediaDevices"> | undefined = globalThis.navigator): boolean {
  return typeof nav?.mediaDevices?.getUserMedia === "function";
}

/** The call stream: HD first, then the 640x480 at 15 fps fallback. Throws the last error. */
export async function openCameraAndMicrophone(getUserMedia: GetUserMedia): Promise<MediaStream> {
  try {
    return await getUserMedia(CALL_MEDIA_CONSTRAINTS);
  } catch (error) {
    if (error instanceof Error && FINAL_ERRORS.has(error.name)) throw error;
    return await getUserMedia(FALLBACK_MEDIA_CONSTRAINTS);
  }
}

/** getUserMedia of this browser, bound so it can be passed around. */
export function browserGetUserMedia(): GetUserMedia {
  return (constraints) => navigator.mediaDevices.getUserMedia(constraints);
}

/** Stops every track: the camera light goes off only when all of them are stopped. */
export function stopStream(stream: MediaStream | null | undefined): void {
  for (const track of stream?.getTracks() ?? []) track.stop();
}
