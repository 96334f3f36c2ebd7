// The safety dialogs' styles travel with their lazily loaded code (as calls/CallStyles.tsx does),
// and stand on their own: the report dialog also opens over a call or Video Roulette, outside the
// chat screen's ".chat-app" rules. Two-class selectors outrank the chat screen's ".chat-app button".
const CSS = `
.safety-backdrop{position:fixed;inset:0;z-index:1100;background:rgba(22,19,31,.5);display:grid;place-items:center;padding:16px;
  font-family:Inter,ui-sans-serif,system-ui,-apple-system,"Segoe UI",Roboto,Arial,sans-serif;color:#16131f}
.safety-backdrop *,.safety-backdrop *::before,.safety-backdrop *::after{box-sizing:border-box}
.safety-modal{width:min(440px,100%);max-height:calc(100dvh - 32px);overflow:auto;background:#fff;border-radius:18px;padding:22px;
  box-shadow:0 24px 60px rgba(22,19,31,.3);display:flex;flex-direction:column;gap:14px;text-align:start}
.safety-modal h2{margin:0;font-size:19px;font-weight:700;letter-spacing:-.01em}
.safety-modal p{margin:0;font-size:14px;line-height:1.5;color:#4b4860}
.safety-modal form{display:flex;flex-direction:column;gap:14px}
.safety-modal fieldset{border:0;margin:0;padding:0;display:flex;flex-direction:column;gap:4px}
.safety-modal legend{font-size:13px;font-weight:600;color:#6b6880;margin-bottom:6px;padding:0}
.safety-modal .safety-choice{display:flex;align-items:center;gap:10px;padding:9px 12px;border:1px solid #ebe9f1;border-radius:11px;
  font-size:14px;cursor:pointer;transition:border-color .15s,background .15s}
.safety-modal .safety-choice:hover{background:#faf8ff}
.safety-modal .safety-choice:has(input:checked){border-color:#7c3aed;background:#f3effe}
.safety-modal .safety-choice input{accent-color:#7c3aed;width:16px;height:16px;margin:0;flex-shrink:0}
.safety-modal .safety-field{display:flex;flex-direction:column;gap:5px;font-size:13px;font-weight:500;color:#6b6880}
.safety-modal textarea{font:inherit;font-size:14px;color:#16131f;resize:vertical;min-height:72px;padding:10px 12px;border:1px solid #ebe9f1;
  border-radius:11px;outline:0}
.safety-modal textarea:focus{border-color:#7c3aed;box-shadow:0 0 0 3px rgba(124,58,237,.15)}
.safety-modal .safety-counter{align-self:flex-end;font-size:12px;color:#6f6b83;font-variant-numeric:tabular-nums}
.safety-modal .safety-error{margin:0;padding:9px 12px;border-radius:10px;background:#fff0f2;color:#b4233a;font-size:13px}
.safety-modal a{color:#6d28d9}
.safety-modal .safety-actions{display:flex;justify-content:flex-end;gap:10px;margin-top:4px}
.safety-modal .safety-button{display:inline-flex;align-items:center;justify-content:center;height:40px;padding:0 18px;border-radius:11px;
  border:1px solid #ebe9f1;background:#fff;color:#16131f;font:inherit;font-weight:600;font-size:14px;cursor:pointer}
.safety-modal .safety-button:hover:not(:disabled){background:#f7f6fa}
.safety-modal .safety-button:disabled{opacity:.5;cursor:not-allowed}
.safety-modal .safety-button.is-primary{background:#7c3aed;border-color:#7c3aed;color:#fff}
.safety-modal .safety-button.is-primary:hover:not(:disabled){background:#6d28d9}
.safety-modal .safety-button.is-danger{background:#d8213c;border-color:#d8213c;color:#fff}
.safety-modal .safety-button.is-danger:hover:not(:disabled){background:#c42a41}
.safety-modal .safety-button:focus-visible,.safety-modal .safety-choice:focus-within{outline:2px solid #7c3aed;outline-offset:2px}
`;

export default function SafetyStyles() {
  return (
    <style href="webchat-safety" precedence="default">
      {CSS}
    </style>
  );
}
