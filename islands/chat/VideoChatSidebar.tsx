// The Video Chat tab's info sidebar: fixed figures, tips, safety and features.
import type { Key } from "../../src/i18n/catalogues/en.ts";
import { t } from "../i18n.ts";
const STATS: [string, Key][] = [
  ["1,247", "roulette.stat_online"],
  ["89", "roulette.stat_countries"],
  ["24/7", "roulette.stat_available"],
];
const TIPS: Key[] = ["roulette.tip_light", "roulette.tip_hello", "roulette.tip_next"];
const SAFETY: Key[] = ["roulette.safe_share", "roulette.safe_nudity", "roulette.safe_stop", "roulette.safe_adult"];
const FEATURES: Key[] = ["roulette.feature_random", "roulette.feature_signup", "roulette.feature_skip", "roulette.feature_browser"];

function List({ title, items }: { title: string; items: Key[] }) {
  return (
    <div className="info-block">
      <h3>{title}</h3>
      <ul>
        {items.map((item) => (
          <li key={item}>{t(item)}</li>
        ))}
      </ul>
    </div>
  );
}

export default function VideoChatSidebar() {
  return (
    <section className="tab-panel video-sidebar" aria-labelledby="video-heading">
      <div className="panel-header">
        <h2 id="video-heading" className="panel-heading">{t("chat.tab_video")}</h2>
      </div>
      {/* Longer languages overflow it: a scrolling region is reached and scrolled by keyboard too. */}
      <div className="list-scroll padded" tabIndex={0} role="region" aria-labelledby="video-heading">
        <div className="stats">
          {STATS.map(([figure, label]) => (
            <div className="stat" key={label}>
              <span className="stat-figure">{figure}</span>
              <span className="stat-label">{t(label)}</span>
            </div>
          ))}
        </div>
        <List title={t("roulette.tips")} items={TIPS} />
        <List title={t("roulette.stay_safe")} items={SAFETY} />
        <List title={t("roulette.features")} items={FEATURES} />
      </div>
    </section>
  );
}
