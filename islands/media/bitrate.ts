// Caps outgoing video (spec section 9 "Video bitrate cap"): 800 kbit/s and 20 fps, applied 2 s
// after the remote stream arrives, once the senders have negotiated their encodings.

export const VIDEO_SENDER_LIMITS = { maxBitrate: 800_000, maxFramerate: 20 } as const;
export const BITRATE_CAP_DELAY_MS = 2000;

type SenderLike = Pick<RTCRtpSender, "track" | "getParameters" | "setParameters">;

/** Applies the limits to every video sender; resolves with how many were capped. */
export async function capVideoSenders(senders: readonly SenderLike[]): Promise<number> {
  let capped = 0;
  for (const sender of senders) {
    if (sender.track?.kind !== "video") continue;
    const params = sender.getParameters();
    // Some browsers report no encodings until asked for one.
    if (!params.encodings || params.encodings.length === 0) params.encodings = [{}];
    for (const encoding of params.encodings) Object.assign(encoding, VIDEO_SENDER_LIMITS);
    try {
      await sender.setParameters(params);
      capped++;
    } catch (error) {
      // The call keeps its uncapped quality: worse for the bandwidth, not for the person.
      console.warn("Could not cap the video bitrate", error);
    }
  }
  return capped;
}
