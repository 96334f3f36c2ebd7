// Video Roulette's styles travel with its lazily loaded screen (see calls/CallStyles.tsx). The
// screen sits inside the chat screen, whose reset (".chat-app button") outranks a single class:
// button and select rules therefore start with ".roulette".
const CSS = `
.roulette{flex:1;display:flex;flex-direction:column;gap:16px;min-height:0;box-sizing:border-box;padding:20px 24px 24px;background:#fff}
.roulette-head{display:flex;align-items:center;gap:12px}
.roulette-title{margin:0;font-size:20px;font-weight:700;color:#1f1536}
.roulette-pill{display:inline-flex;align-items:center;gap:6px;padding:3px 10px;border-radius:999px;font-size:12px;font-weight:600;
  background:#f1f0f5;color:#5b5570}
.roulette-pill::before{content:"";width:8px;height:8px;border-radius:50%;background:#a3a0b3}
.roulette-pill.is-searching,.roulette-pill.is-connecting{background:#fff7e6;color:#9a5b00}
.roulette-pill.is-searching::before,.roulette-pill.is-connecting::before{background:#f59e0b}
.roulette-pill.is-connected{background:#e8f9ef;color:#137a3d}
.roulette-pill.is-connected::before{background:#22c55e}
.roulette-stage{position:relative;flex:1;min-height:280px;border-radius:18px;overflow:hidden;
  background:radial-gradient(circle at 50% 38%,#3b1d6e 0%,#1a0f33 55%,#0b0716 100%);box-shadow:0 10px 30px rgba(31,21,54,.18)}
.roulette-remote{position:absolute;inset:0;width:100%;height:100%;object-fit:cover;background:#000}
.roulette-remote.is-hidden{visibility:hidden}
.roulette-overlay{position:absolute;inset:0;display:flex;flex-direction:column;align-items:center;justify-content:center;gap:14px;
  padding:24px;text-align:center;color:#fff;transition:opacity .2s}
.roulette-overlay.is-hidden{opacity:0;pointer-events:none}
.roulette-orb{position:relative;width:96px;height:96px;border-radius:50%;display:grid;place-items:center;
  background:linear-gradient(135deg,#a78bfa,#6d28d9);box-shadow:0 0 40px rgba(167,139,250,.45)}
.roulette-orb svg{color:#fff}
.roulette-ring{position:absolute;inset:-10px;border-radius:50%;border:3px solid rgba(196,181,253,.25);border-top-color:#c4b5fd;
  animation:roulette-spin 1s linear infinite}
@keyframes roulette-spin{to{transform:rotate(360deg)}}
.roulette-status{margin:0;font-size:20px;font-weight:600}
.roulette-hint{margin:0;max-width:340px;font-size:14px;color:rgba(255,255,255,.7)}
.roulette-partner{position:absolute;top:16px;left:16px;display:flex;flex-direction:column;gap:2px;padding:8px 14px;border-radius:12px;
  background:rgba(15,10,29,.62);backdrop-filter:blur(6px);color:#fff;font-size:13px}
.roulette-partner strong{font-size:16px}
.roulette-local{position:absolute;right:16px;bottom:16px;width:200px;height:150px;border-radius:12px;overflow:hidden;
  border:2px solid rgba(255,255,255,.35);box-shadow:0 6px 18px rgba(0,0,0,.45);background:#1f1b2e}
.roulette-local-video{width:100%;height:100%;object-fit:cover;transform:scaleX(-1);display:block}
.roulette-you{position:absolute;left:8px;bottom:6px;font-size:12px;font-weight:600;color:#fff;text-shadow:0 1px 3px rgba(0,0,0,.7)}
.roulette-bar{display:flex;align-items:flex-end;justify-content:space-between;gap:16px;flex-wrap:wrap}
.roulette-filters{display:flex;gap:12px;flex-wrap:wrap}
.roulette-filter{display:flex;flex-direction:column;gap:4px;font-size:12px;font-weight:600;color:#5b5570}
.roulette .roulette-filter select{min-width:160px;max-width:240px;height:40px;padding:0 10px;border:1px solid #d9d5e6;border-radius:10px;background:#fff;
  font:inherit;font-size:14px;font-weight:400;color:#1f1536}
.roulette .roulette-filter select:focus-visible{outline:2px solid #7c3aed;outline-offset:1px}
.roulette .roulette-buttons{display:flex;gap:10px;flex-shrink:0}
.roulette .roulette-button{flex-shrink:0;white-space:nowrap;display:inline-flex;align-items:center;justify-content:center;gap:8px;height:44px;padding:0 22px;border-radius:12px;
  border:0;font:inherit;font-size:15px;font-weight:600;cursor:pointer;transition:background .15s,transform .1s}
.roulette .roulette-button:active{transform:translateY(1px)}
.roulette .roulette-button:focus-visible{outline:3px solid #c4b5fd;outline-offset:2px}
.roulette .roulette-button:disabled{opacity:.6;cursor:default}
.roulette .roulette-button.is-start,.roulette .roulette-button.is-next{background:#7c3aed;color:#fff}
.roulette .roulette-button.is-stop{background:#fff;color:#dc2626;border:1.5px solid #fca5a5}
@media (hover:hover){
  .roulette .roulette-button.is-start:hover:not(:disabled),.roulette .roulette-button.is-next:hover{background:#6d28d9}
  .roulette .roulette-button.is-stop:hover{background:#fef2f2}
}
.roulette-error{margin:0;padding:10px 14px;border-radius:10px;background:#fef2f2;color:#b91c1c;font-size:14px}
.roulette.is-mobile{padding:12px 12px 16px;gap:12px}
.roulette.is-mobile .roulette-stage{min-height:300px;border-radius:14px}
.roulette.is-mobile .roulette-local{width:110px;height:82px;right:10px;bottom:10px}
.roulette.is-mobile .roulette-overlay{justify-content:flex-start;padding:40px 20px 100px}
.roulette.is-mobile .roulette-orb{width:76px;height:76px}
.roulette.is-mobile .roulette-status{font-size:18px}
.roulette.is-mobile .roulette-bar{flex-direction:column;align-items:stretch}
.roulette.is-mobile .roulette-filters{display:grid;grid-template-columns:1fr 1fr}
.roulette.is-mobile .roulette-filter select{min-width:0;max-width:none;width:100%}
.roulette.is-mobile .roulette-buttons{width:100%}
.roulette.is-mobile .roulette-button{flex:1;padding:0 12px}
@media (prefers-reduced-motion:reduce){.roulette-ring{animation:none}}
`;

export default function RouletteStyles() {
  return (
    <style href="webchat-roulette" precedence="default">
      {CSS}
    </style>
  );
}
