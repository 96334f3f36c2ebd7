// The Video Chat tab's info sidebar: fixed figures, tips, safety and features.
const STATS: [string, string][] = [
  ["1,247", "online users"],
  ["89", "countries"],
  ["24/7", "available"],
];
const TIPS = [
  "Find a quiet, well-lit spot and look at the camera",
  "Say hello first: a smile goes a long way",
  "Press 'Next Partner' any time to meet someone new",
];
const SAFETY = [
  "Never share your address, phone number or passwords",
  "Nudity and sexual content are prohibited and lead to a ban",
  "Press 'Stop' at once if someone makes you uncomfortable",
  "Everyone here must be 18 or older",
];
const FEATURES = ["Random one-to-one video matching", "No sign-up needed to start", "Instant skip to the next partner", "Works in any modern browser"];

function List({ title, items }: { title: string; items: string[] }) {
  return (
    <div className="info-block">
      <h3>{title}</h3>
      <ul>
        {items.map((item) => (
          <li key={item}>{item}</li>
        ))}
      </ul>
    </div>
  );
}

export default function VideoChatSidebar() {
  return (
    <section className="tab-panel video-sidebar" aria-labelledby="video-heading">
      <div className="panel-header">
        <h2 id="video-heading" className="panel-heading">Video Chat</h2>
      </div>
      <div className="list-scroll padded">
        <div className="stats">
          {STATS.map(([figure, label]) => (
            <div className="stat" key={label}>
              <span className="stat-figure">{figure}</span>
              <span className="stat-label">{label}</span>
            </div>
          ))}
        </div>
        <List title="Tips" items={TIPS} />
        <List title="Stay safe" items={SAFETY} />
        <List title="Features" items={FEATURES} />
      </div>
    </section>
  );
}
