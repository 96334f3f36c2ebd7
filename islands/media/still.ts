// A still of a video at the moment someone reports it (issue 7, "Evidence"): the frame the
// reporter sees is drawn on a canvas and encoded as JPEG, so that what was on screen is kept even
// if the other person turns the camera off a second later. The server checks and cleans it.

/** Longest side of the still, in pixels: enough for a moderator to judge, small to upload. */
export const STILL_MAX_SIDE = 640;
export const STILL_JPEG_QUALITY = 0.85;

/** The still's size: the frame scaled down (never up) so that its longest side fits `maxSide`. */
export function stillSize(width: number, height: number, maxSide: number = STILL_MAX_SIDE): { width: number; height: number } {
  const scale = Math.min(1, maxSide / Math.max(width, height));
  return { width: Math.max(1, Math.round(width * scale)), height: Math.max(1, Math.round(height * scale)) };
}

/** The current frame of `video` as a JPEG, or null when the video shows no frame yet. */
export async function captureStill(video: HTMLVideoElement, maxSide: number = STILL_MAX_SIDE): Promise<Blob | null> {
  // HAVE_CURRENT_DATA (2): a frame is there to draw; before that the canvas would be blank.
  if (video.readyState < 2 || video.videoWidth === 0 || video.videoHeight === 0) return null;
  const { width, height } = stillSize(video.videoWidth, video.videoHeight, maxSide);
  const canvas = document.createElement("canvas");
  canvas.width = width;
  canvas.height = height;
  const context = canvas.getContext("2d");
  if (!context) return null;
  try {
    context.drawImage(video, 0, 0, width, height);
  } catch (error) {
    console.error("Could not capture a still of the video", error);
    return null;
  }
  return new Promise((resolve) => canvas.toBlob((blob) => resolve(blob), "image/jpeg", STILL_JPEG_QUALITY));
}
