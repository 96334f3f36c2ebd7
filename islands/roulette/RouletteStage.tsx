// The roulette's video area: the partner's video large, your own camera small in a corner, and
// the status line over the stage while nobody is connected. The partner is a stranger: the
// label shows "Stranger", age and country only, and Report and Block sit on their video.
import { t } from "../i18n.ts";
import { useRef, type RefObject } from "react";
import { blurLabel, isBlurred } from "../nudity/blur-machine.ts";
import type { GuardSnapshot } from "../nudity/video-guard.ts";
import CallIcon from "../calls/CallIcon.tsx";
import StreamVideo from "../calls/StreamVideo.tsx";
import type { RoulettePartner } from "../../src/realtime/protocol.ts";
import { flagOf, type RouletteStatus } from "./roulette-state.ts";
import { ROULETTE_INTEREST_TEXTS } from "./interest-texts.ts";
import { countryLabel } from "../lib/format.ts";
import { languageList } from "../interests/languages.ts";

interface Props {
  status: RouletteStatus;
  statusText: string;
  partner: RoulettePartner | null;
  localStream: MediaStream | null;
  remoteStream: MediaStream | null;
  /** Report: gets the stranger's <video>, for a still of this very moment. */
  onReport?: (remoteVideo: HTMLVideoElement | null) => void;
  onBlock?: () => void;
  /** The nudity blur over the stranger (issue 12); absent, nothing is blurred. */
  guard?: GuardSnapshot;
  onShowAnyway?: () => void;
  onNext?: () => void;
  videoRef?: RefObject<HTMLVideoElement | null>;
}

function partnerLine(partner: RoulettePartner): string {
  const details = [partner.age ? String(partner.age) : null, partner.country_name ? `${flagOf(partner.country_code)} ${countryLabel(partner.country_code, partner.country_name)}` : null];
  return details.filter(Boolean).join(" · ");
}

export default function RouletteStage({ status, statusText, partner, localStream, remoteStream, onReport, onBlock, guard, onShowAnyway, onNext, videoRef }: Props) {
  const live = status === "connected" && remoteStream !== null;
  const own = useRef<HTMLVideoElement | null>(null);
  const remoteVideo = videoRef ?? own;
  const blurred = guard !== undefined && isBlurred(guard.blur);
  return (
    <div className={`roulette-stage is-${status}`}>
      <StreamVideo
        stream={remoteStream}
        label={t("roulette.partner_video")}
        className={`roulette-remote${live ? "" : " is-hidden"}${blurred ? " is-blurred" : ""}`}
        videoRef={remoteVideo}
      />
      {live && guard && blurred && (
        <div className="roulette-blur" role="group" aria-label={t("roulette.blurred_video")} data-blur={guard.blur.mode}>
          <p className="roulette-blur-label">{blurLabel(guard.blur, guard.loading, guard.unavailable)}</p>
          <div className="roulette-blur-buttons">
            {onShowAnyway && (
              <button type="button" className="roulette-blur-button" onClick={onShowAnyway}>
                {t("roulette.show_anyway")}
              </button>
            )}
            {onNext && (
              <button type="button" className="roulette-blur-button" onClick={onNext}>
                {t("roulette.next_short")}
              </button>
            )}
            {onReport && (
              <button type="button" className="roulette-blur-button is-report" onClick={() => onReport(remoteVideo.current)}>
                {t("chat.report")}
              </button>
            )}
          </div>
        </div>
      )}
      <div className={`roulette-overlay${live ? " is-hidden" : ""}`}>
        <span className="roulette-orb" aria-hidden="true">
          <CallIcon name="video" size={36} />
          {(status === "searching" || status === "connecting") && <span className="roulette-ring" />}
        </span>
        <p className="roulette-status" id="roulette-status" role="status" aria-live="polite">
          {statusText}
        </p>
        {status === "disconnected" && <p className="roulette-hint">{t("roulette.hint")}</p>}
      </div>
      {partner && (
        <div className="roulette-partner">
          <strong>{t("roulette.stranger")}</strong>
          {partnerLine(partner) && <span>{partnerLine(partner)}</span>}
          {partner.sharedInterests?.length > 0 && <span className="roulette-shared">{ROULETTE_INTEREST_TEXTS.shared(partner.sharedInterests)}</span>}
          {partner.languages?.length > 0 && <span>{ROULETTE_INTEREST_TEXTS.speaks(languageList(partner.languages))}</span>}
        </div>
      )}
      {live && partner && (onReport || onBlock) && (
        <div className="roulette-safety" role="group" aria-label={t("chat.settings_safety")}>
          {/* While blurred, Report sits with Show anyway and Next on the blur. */}
          {onReport && !blurred && (
            <button type="button" className="roulette-safety-button" onClick={() => onReport(remoteVideo.current)} title={t("roulette.report_title")}>
              <CallIcon name="flag" size={16} />
              {` ${t("chat.report")}`}
            </button>
          )}
          {onBlock && (
            <button type="button" className="roulette-safety-button" onClick={onBlock} title={t("roulette.block_title")}>
              <CallIcon name="ban" size={16} />
              {` ${t("chat.block")}`}
            </button>
          )}
        </div>
      )}
      {localStream && (
        <div className="roulette-local">
          <StreamVideo stream={localStream} label={t("roulette.your_camera")} className="roulette-local-video" muted />
          <span className="roulette-you" aria-hidden="true">
            {t("roulette.you")}
          </span>
        </div>
      )}
    </div>
  );
}
