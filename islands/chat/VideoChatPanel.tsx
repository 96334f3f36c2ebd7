// The Video Chat tab's main area: the Video Roulette screen. Its code (and the WebRTC handling)
// loads only when this tab is shown; until it arrives, the same first screen shows, inactive.
import { lazy, Suspense } from "react";
import Icon from "./icons.tsx";
import { t } from "../i18n.ts";

const Roulette = lazy(() => import("../roulette/Roulette.tsx"));

function Loading() {
  return (
    <section className="video-panel" aria-labelledby="video-panel-status" aria-busy="true">
      <div className="video-stage">
        <span className="video-stage-icon">
          <Icon name="video" size={44} />
        </span>
        <p id="video-panel-status" className="video-status" role="status">
          {t("roulette.click_start")}
        </p>
        <button type="button" className="button primary large" disabled>
          <Icon name="video" size={20} />
          {` ${t("roulette.start")}`}
        </button>
      </div>
    </section>
  );
}

export default function VideoChatPanel() {
  return (
    <Suspense fallback={<Loading />}>
      <Roulette />
    </Suspense>
  );
}
