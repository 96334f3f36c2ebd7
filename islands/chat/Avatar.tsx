// A person's picture, or the first letter of the name when there is none (or it fails to load).
import { useState } from "react";
import { initial } from "../lib/format.ts";

interface Props {
  name: string;
  url?: string | null;
  size?: "sm" | "md" | "lg" | "xl";
  /** Shows the presence dot when given. */
  online?: boolean;
}

export default function Avatar({ name, url, size = "md", online }: Props) {
  const [failed, setFailed] = useState<string | null>(null);
  const showImage = Boolean(url) && failed !== url;
  return (
    <span className={`avatar avatar-${size}`} aria-hidden="true">
      {showImage ? (
        <img src={url ?? ""} alt="" loading="lazy" onError={() => setFailed(url ?? null)} />
      ) : (
        <span className="avatar-initial">{initial(name)}</span>
      )}
      {online !== undefined && <span className={`presence-dot ${online ? "is-online" : "is-offline"}`} />}
    </span>
  );
}
