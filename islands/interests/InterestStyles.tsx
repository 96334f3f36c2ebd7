// The tag input's and language picker's styles, hoisted once by React (the same href).
const CSS = `
.tag-input,.language-picker{display:flex;flex-direction:column;gap:6px;position:relative;min-width:0;border:0;margin:0;padding:0}
.tag-input-label,.language-picker legend{font-size:13px;font-weight:600;color:#4b4560;padding:0}
.tag-box{display:flex;flex-wrap:wrap;align-items:center;gap:6px;min-height:42px;padding:4px 8px;border:1px solid #d9d5e6;border-radius:10px;background:#fff}
.tag-box:focus-within{outline:2px solid #7c3aed;outline-offset:1px}
.tag-list{display:flex;flex-wrap:wrap;gap:6px;list-style:none;margin:0;padding:0}
.tag{display:inline-flex;align-items:center;gap:2px;padding:2px 2px 2px 10px;border-radius:999px;background:#ede9fe;color:#3b1f7a;font-size:13px;font-weight:600;max-width:100%}
.tag-remove{display:inline-flex;align-items:center;justify-content:center;width:24px;height:24px;border:0;border-radius:50%;background:transparent;color:#3b1f7a;font:inherit;font-size:16px;line-height:1;cursor:pointer}
.tag-remove:hover{background:#ddd6fe}
.tag-remove:focus-visible{outline:2px solid #7c3aed}
.tag-input .tag-box input.tag-field,.tag-input .tag-box input.tag-field:focus,.tag-input .tag-box input.tag-field:focus-visible{flex:1 1 120px;width:auto;min-width:100px;height:32px;min-height:0;margin:0;padding:0 4px;border:0;border-radius:0;outline:0;box-shadow:none;background:transparent;font:inherit;font-size:14px;color:#1f1536}
.tag-options{position:absolute;z-index:20;left:0;right:0;top:100%;margin:4px 0 0;padding:4px;list-style:none;background:#fff;border:1px solid #d9d5e6;border-radius:10px;box-shadow:0 8px 24px rgba(31,21,54,.15);max-height:220px;overflow:auto}
.tag-option{padding:8px 10px;border-radius:8px;cursor:pointer;font-size:14px;color:#1f1536}
.tag-option[aria-selected="true"],.tag-option:hover{background:#ede9fe}
.tag-hint{margin:0;font-size:12px;color:#5b5570}
.tag-problem{margin:0;font-size:12px;color:#b91c1c}
.language-add{display:flex;gap:6px}
.language-picker .language-add select{flex:1;min-width:0;height:36px;padding:0 8px;border:1px solid #d9d5e6;border-radius:8px;background:#fff;font:inherit;font-size:14px;color:#1f1536}
.language-picker .language-add button{flex-shrink:0;height:36px;padding:0 16px;border:1.5px solid #c4b5fd;border-radius:8px;background:#fff;color:#5b21b6;font:inherit;font-size:14px;font-weight:600;cursor:pointer}
.language-picker .language-add button:hover:not(:disabled){background:#f5f3ff}
.language-picker .language-add button:focus-visible{outline:2px solid #7c3aed;outline-offset:1px}
.language-picker .language-add button:disabled{opacity:.6;cursor:default}
.interest-chips{display:flex;flex-wrap:wrap;gap:6px;list-style:none;margin:0;padding:0}
.interest-chips li{padding:2px 10px;border-radius:999px;background:#ede9fe;color:#3b1f7a;font-size:13px;font-weight:600}
`;

export default function InterestStyles() {
  return (
    <style href="webchat-interests" precedence="default">
      {CSS}
    </style>
  );
}
