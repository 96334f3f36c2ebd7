// The call overlay's styles travel with its lazily loaded code, so the chat page's stylesheet
// carries nothing for a feature most visits never open. React 19 hoists the <style> into <head>
// once, however many times it is rendered.
const CSS = `
.call-overlay{position:fixed;inset:0;z-index:1000;display:flex;color:#fff;font-family:inherit;
  background:radial-gradient(circle at 50% 28%,#3b1d6e 0%,#160c2c 55%,#07050d 100%)}
.call-overlay:focus{outline:none}
.call-center{margin:auto;display:flex;flex-direction:column;align-items:center;gap:10px;text-align:center;padding:24px}
.call-avatar{width:120px;height:120px;border-radius:50%;display:grid;place-items:center;margin-bottom:14px;
  background:linear-gradient(135deg,#a78bfa,#6d28d9);font-size:50px;font-weight:600;color:#fff}
.call-avatar-img{width:100%;height:100%;border-radius:50%;object-fit:cover}
.call-avatar.is-ringing,.call-avatar.is-calling{animation:call-pulse 1.6s ease-out infinite}
@keyframes call-pulse{0%{box-shadow:0 0 0 0 rgba(167,139,250,.6)}100%{box-shadow:0 0 0 30px rgba(167,139,250,0)}}
.call-title{margin:0;font-size:28px;font-weight:600;letter-spacing:-.01em}
.call-subtitle{margin:0;font-size:16px;color:rgba(255,255,255,.72)}
.call-actions{display:flex;gap:56px;margin-top:44px}
.call-action{display:flex;flex-direction:column;align-items:center;gap:10px;padding:4px;border:0;background:none;
  color:#fff;font:inherit;font-size:15px;cursor:pointer;border-radius:12px}
.call-round{width:68px;height:68px;border-radius:50%;display:grid;place-items:center;transition:transform .15s,filter .15s;
  box-shadow:0 6px 20px rgba(0,0,0,.35)}
.is-accept .call-round{background:#22c55e}
.is-decline .call-round{background:#ef4444}
.call-action:hover .call-round{transform:scale(1.06);filter:brightness(1.08)}
.call-action:focus-visible{outline:none}
.call-action:focus-visible .call-round,.call-control:focus-visible,.call-sound:focus-visible{outline:3px solid #c4b5fd;outline-offset:3px}
.call-spinner{width:44px;height:44px;border-radius:50%;border:4px solid rgba(255,255,255,.2);border-top-color:#a78bfa;
  animation:call-spin .9s linear infinite}
@keyframes call-spin{to{transform:rotate(360deg)}}
.call-connected{position:relative;flex:1;overflow:hidden;background:#000}
.call-remote{position:absolute;inset:0;width:100%;height:100%;object-fit:contain;background:#000}
.call-waiting{position:absolute;inset:0;display:flex;flex-direction:column;gap:16px;align-items:center;justify-content:center;
  color:rgba(255,255,255,.85);font-size:16px}
.call-topbar{position:absolute;top:0;left:0;right:0;display:flex;align-items:center;gap:12px;padding:18px 20px;
  background:linear-gradient(rgba(0,0,0,.6),transparent)}
.call-name{margin:0;font-size:18px;font-weight:600}
.call-report{display:inline-flex;align-items:center;gap:6px;height:34px;padding:0 14px;border:0;border-radius:999px;
  background:rgba(255,255,255,.16);color:#fff;font:inherit;font-size:14px;font-weight:600;cursor:pointer}
.call-report:hover{background:rgba(239,68,68,.85)}
.call-report:focus-visible{outline:3px solid #c4b5fd;outline-offset:2px}
.call-connection{margin:0;font-size:13px;color:rgba(255,255,255,.9)}
.call-notice{padding:4px 10px;border-radius:999px;background:#f59e0b;color:#1f1300;font-size:13px;font-weight:500}
.call-local-wrap{position:absolute;top:16px;right:16px;width:150px;height:100px;border-radius:10px;overflow:hidden;
  background:#1f1b2e;border:2px solid rgba(255,255,255,.3);box-shadow:0 6px 18px rgba(0,0,0,.5)}
.call-local{display:block;width:150px;height:100px;object-fit:cover;transform:scaleX(-1);background:#1f1b2e}
.call-local-wrap.is-off .call-local{visibility:hidden}
.call-local-off{position:absolute;inset:0;display:grid;place-items:center;font-size:12px;color:rgba(255,255,255,.8)}
.call-controls{position:absolute;left:50%;bottom:28px;transform:translateX(-50%);display:flex;gap:18px;padding:12px 18px;
  border-radius:999px;background:rgba(17,12,30,.72);backdrop-filter:blur(8px)}
.call-control{width:56px;height:56px;border:0;border-radius:50%;display:grid;place-items:center;cursor:pointer;
  background:rgba(255,255,255,.16);color:#fff;transition:background .15s}
.call-control:hover{background:rgba(255,255,255,.26)}
.call-control.is-active{background:#fff;color:#1f1b2e}
.call-control.is-end{background:#ef4444}
.call-control.is-end:hover{background:#dc2626}
.call-sound{position:absolute;top:72px;left:50%;transform:translateX(-50%);display:flex;align-items:center;gap:8px;
  padding:8px 14px;border:0;border-radius:999px;background:#fff;color:#1f1b2e;font:inherit;font-size:14px;cursor:pointer}
@media (max-width:768px){
  .call-title{font-size:23px}
  .call-actions{gap:40px}
  .call-topbar{padding:14px 16px;flex-wrap:wrap;row-gap:6px}
  .call-connection{flex-basis:100%;font-size:12px}
  .call-local-wrap{top:100px;right:12px}
  .call-controls{bottom:20px;gap:14px}
}
@media (prefers-reduced-motion:reduce){.call-avatar.is-ringing,.call-avatar.is-calling,.call-spinner{animation:none}}
`;

export default function CallStyles() {
  return (
    <style href="webchat-call" precedence="default">
      {CSS}
    </style>
  );
}
