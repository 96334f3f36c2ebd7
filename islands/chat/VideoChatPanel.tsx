// The Video Chat tab's main area, where the Video Roulette screen goes.
import Icon from "./icons.tsx";

export default function VideoChatPanel() {
  const open = () => {
    // The roulette screen is its own lazily loaded island (peer connection code stays out of the
    // chat bundle); it listens for this event and takes over this area.
    window.dispatchEvent(new CustomEvent("webchat:open-roulette"));
  };
  return (
    <section className="video-panel" aria-labelledby="video-panel-status" data-roulette-root="">
      <div className="video-stage">
        <span className="video-stage-icon">
          <Icon name="video" size={44} />
        </span>
        <p id="video-panel-status" className="video-status" role="status">
          Click "Start" to begin video chat
        </p>
        <button type="button" className="button primary large" onClick={open}>
          <Icon name="video" size={20} /> Start Video Chat
        </button>
      </div>
    </section>
  );
}
