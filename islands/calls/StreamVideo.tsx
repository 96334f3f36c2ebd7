// A <video> showing a MediaStream. srcObject cannot be set from JSX, so a ref does it. When the
// browser refuses to start sound without a click, the video plays muted and `onSoundBlocked`
// lets the screen offer a button that turns the sound on.
import { useEffect, useRef, type RefObject } from "react";

interface Props {
  stream: MediaStream | null;
  label: string;
  className?: string;
  /** The local preview is always muted: hearing yourself echoes. */
  muted?: boolean;
  /** Raised when the browser blocked sound; the video keeps playing muted. */
  onSoundBlocked?: (enableSound: () => void) => void;
  /** The <video> itself, for taking a still of it (Report). */
  videoRef?: RefObject<HTMLVideoElement | null>;
}

export default function StreamVideo({ stream, label, className, muted = false, onSoundBlocked, videoRef }: Props) {
  const own = useRef<HTMLVideoElement>(null);
  const ref = videoRef ?? own;

  useEffect(() => {
    const video = ref.current;
    if (!video) return;
    if (video.srcObject !== stream) video.srcObject = stream;
    if (!stream || typeof video.play !== "function") return;
    video.muted = muted;
    video.play()?.catch((error: unknown) => {
      if (muted || !(error instanceof Error) || error.name !== "NotAllowedError") return;
      video.muted = true;
      void video.play()?.catch(() => undefined);
      onSoundBlocked?.(() => {
        video.muted = false;
        void video.play()?.catch(() => undefined);
      });
    });
  }, [stream, muted, onSoundBlocked]);

  return <video ref={ref} className={className} aria-label={label} autoPlay playsInline muted={muted} />;
}
