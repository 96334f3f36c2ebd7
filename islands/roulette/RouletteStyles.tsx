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
/* A long "Looking for someone who likes ..." wraps clear of the own preview in the corner (216 px a side). */
.roulette:not(.is-mobile) .roulette-status{max-width:max(240px,calc(100% - 460px));overflow-wrap:anywhere}
.roulette-hint{margin:0;max-width:340px;font-size:14px;color:rgba(255,255,255,.7)}
.roulette-partner{position:absolute;z-index:3;top:16px;left:16px;display:flex;flex-direction:column;gap:2px;padding:8px 14px;border-radius:12px;
  background:rgba(15,10,29,.62);backdrop-filter:blur(6px);color:#fff;font-size:13px}
.roulette-partner strong{font-size:16px}
.roulette-safety{position:absolute;top:16px;right:16px;display:flex;gap:8px;z-index:3}
.roulette .roulette-safety-button{display:inline-flex;align-items:center;gap:6px;height:34px;padding:0 12px;border:0;border-radius:999px;
  background:rgba(15,10,29,.62);backdrop-filter:blur(6px);color:#fff;font:inherit;font-size:13px;font-weight:600;cursor:pointer}
.roulette .roulette-safety-button:hover{background:rgba(220,38,38,.9)}
.roulette .roulette-safety-button:focus-visible{outline:3px solid #c4b5fd;outline-offset:2px}
.roulette-chat{display:flex;flex-direction:column;gap:8px;padding:10px;border:1px solid #e6e2f0;border-radius:14px;background:#faf9fd}
.roulette-chat-list{list-style:none;margin:0;padding:0 2px;display:flex;flex-direction:column;gap:6px;height:112px;overflow-y:auto}
.roulette-chat-empty{margin:auto;font-size:13px;color:#746e88;text-align:center}
.roulette-line{max-width:75%;padding:7px 12px;border-radius:14px;font-size:14px;line-height:1.35;overflow-wrap:anywhere;white-space:pre-wrap}
.roulette-line.is-mine{align-self:flex-end;background:#7c3aed;color:#fff;border-bottom-right-radius:4px}
.roulette-line.is-theirs{align-self:flex-start;background:#ece9f5;color:#1f1536;border-bottom-left-radius:4px}
.roulette-chat-form{display:flex;align-items:center;gap:8px}
.roulette .roulette-chat-input{flex:1;min-width:0;height:40px;padding:0 12px;border:1px solid #d9d5e6;border-radius:10px;background:#fff;font:inherit;font-size:14px;color:#1f1536}
.roulette .roulette-chat-input:disabled{background:#f1f0f5;color:#746e88}
.roulette .roulette-chat-input:focus-visible{outline:2px solid #7c3aed;outline-offset:1px}
.roulette-chat-counter{font-size:12px;color:#746e88;font-variant-numeric:tabular-nums}
.roulette-chat-counter.is-full{color:#b91c1c}
.roulette .roulette-chat-send{height:40px;padding:0 16px;border:0;border-radius:10px;background:#7c3aed;color:#fff;font:inherit;font-size:14px;font-weight:600;cursor:pointer}
.roulette .roulette-chat-send:disabled{opacity:.5;cursor:default}
.roulette-local{position:absolute;right:16px;bottom:16px;width:200px;height:150px;border-radius:12px;overflow:hidden;
  border:2px solid rgba(255,255,255,.35);box-shadow:0 6px 18px rgba(0,0,0,.45);background:#1f1b2e}
.roulette-local-video{width:100%;height:100%;object-fit:cover;transform:scaleX(-1);display:block}
.roulette-you{position:absolute;left:8px;bottom:6px;font-size:12px;font-weight:600;color:#fff;text-shadow:0 1px 3px rgba(0,0,0,.7)}
.roulette-bar{display:flex;align-items:flex-end;justify-content:space-between;gap:16px;flex-wrap:wrap}
.roulette-filter-area{display:flex;flex-direction:column;gap:10px;min-width:0;flex:1 1 520px}
.roulette-filters{display:flex;gap:12px;flex-wrap:wrap}
.roulette-interests{display:flex;flex-direction:column;gap:8px;max-width:520px}
.roulette-only{display:flex;align-items:center;gap:8px;font-size:14px;color:#1f1536}
.roulette-only input{width:18px;height:18px;accent-color:#7c3aed}
.roulette-only input:disabled+span{color:#8a8499}
.roulette-shared{display:block;font-size:13px;font-weight:600}
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
.roulette .roulette-button.is-stop{background:#fff;color:#da2323;border:1.5px solid #fca5a5}
.roulette .roulette-button.is-keep{background:#fff;color:#7c3aed;border:1.5px solid #c4b5fd}
.roulette .roulette-button.is-keep.is-pressed{background:#f5f3ff;opacity:1;font-size:14px}
@media (hover:hover){
  .roulette .roulette-button.is-start:hover:not(:disabled),.roulette .roulette-button.is-next:hover{background:#6d28d9}
  .roulette .roulette-button.is-stop:hover{background:#fef2f2}
  .roulette .roulette-button.is-keep:hover:not(:disabled){background:#f5f3ff}
}
.roulette-ip-notice{margin:0;padding:10px 14px;border-radius:10px;background:#fffbeb;color:#78350f;border:1px solid #f59e0b;font-size:14px}
.connection-kind{margin:0;font-size:13px;color:#374151}
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
.roulette.is-mobile .roulette-buttons{width:100%;flex-wrap:wrap}
.roulette.is-mobile .roulette-button.is-keep{flex-basis:100%}
.roulette.is-mobile .roulette-chat-list{height:84px}
/* On a phone the buttons come right under the video (Stop and Next in reach), the text chat after them. */
.roulette.is-mobile .roulette-bar{order:1}
/* The filters grew with issue 24 (language, interests): Start, Stop and Next stay first in the bar. */
.roulette.is-mobile .roulette-bar .roulette-buttons{order:-1}
.roulette.is-mobile .roulette-chat{order:2}
/* The partner's label takes the top: Report and Block sit bottom left, clear of the own preview. */
.roulette.is-mobile .roulette-safety{top:auto;right:auto;left:10px;bottom:10px}
.roulette.is-mobile .roulette-button{flex:1;padding:0 12px}
@media (prefers-reduced-motion:reduce){.roulette-ring{animation:none}}
/* Issue 12: a blur strong enough that nothing can be made out; scaled so no sharp edge shows. */
.roulette-remote.is-blurred{filter:blur(44px) saturate(.7);transform:scale(1.15)}
.roulette-blur{position:absolute;inset:0;display:flex;flex-direction:column;align-items:center;justify-content:center;
  gap:14px;padding:16px;background:rgba(15,10,29,.35);color:#fff;text-align:center;z-index:2}
.roulette-blur-label{margin:0;font-size:16px;font-weight:600;text-shadow:0 1px 3px rgba(0,0,0,.6)}
.roulette-blur-buttons{display:flex;flex-wrap:wrap;gap:10px;justify-content:center}
.roulette .roulette-blur-button{min-height:40px;padding:0 18px;border:1px solid rgba(255,255,255,.5);border-radius:999px;
  background:rgba(15,10,29,.62);color:#fff;font:inherit;font-size:14px;font-weight:600;cursor:pointer}
.roulette .roulette-blur-button.is-report{background:#c62828;border-color:#c62828}
.roulette .roulette-blur-button:focus-visible{outline:3px solid #fff;outline-offset:2px}
`;

export default function RouletteStyles() {
  return (
    <style href="webchat-roulette" precedence="default">
      {CSS}
    </style>
  );
}
