// One auth form with JavaScript on: live messages, the button disabled until the spec's rules
// hold, and submission through the JSON API with a spinner and busy label. On success it keeps the
// user id in localStorage (spec section 4; the token never: issue 9, the answer's session cookie
// carries the session to "/"), leaves a `flash` cookie for the success toast and opens "/", which
// the server now renders as the chat screen.
import { localeTag } from "../i18n.ts";
import { FLASH_COOKIE, writeCookie } from "./cookies.ts";
import { rules, type AuthKind, type Values } from "./auth-rules.ts";
import { clearBanNotice, isBanAnswer, showBanNotice, type BanAnswer } from "./ban-notice.ts";

interface AuthAnswer extends BanAnswer {
  token?: string;
  user?: { id?: number };
  data?: { token?: string; user?: { id?: number } };
  error?: string;
  message?: string;
  fields?: Record<string, string>;
}

export function enhanceAuthForm(form: HTMLFormElement, kind: AuthKind): void {
  const rule = rules[kind];
  const button = form.querySelector<HTMLButtonElement>("[data-submit]");
  const label = button?.querySelector<HTMLElement>("[data-label]");
  const idleLabel = label?.textContent ?? "";
  const formError = form.querySelector<HTMLElement>("[data-form-error]");
  const touched = new Set<string>();
  let busy = false;

  const values = (): Values => {
    const out: Values = {};
    // A repeated name (the register form's languages, a multiple select) keeps every choice: "en,de".
    for (const [key, value] of new FormData(form)) if (typeof value === "string") out[key] = key in out ? `${out[key]},${value}` : value;
    const select = form.querySelector<HTMLSelectElement>('select[name="country_code"]');
    if (select?.value) out.country_name = select.selectedOptions[0]?.text ?? "";
    return out;
  };

  const errorLine = (name: string) => form.querySelector<HTMLElement>(`[data-error-for="${name}"]`);
  const control = (name: string) => form.querySelector<HTMLElement>(`[name="${name}"]`);

  function showError(name: string, message: string) {
    const line = errorLine(name);
    if (line) line.textContent = message;
    const input = control(name);
    if (!input || input.getAttribute("type") === "radio") return;
    if (message) input.setAttribute("aria-invalid", "true");
    else input.removeAttribute("aria-invalid");
  }

  function update() {
    const current = values();
    const problems = rule.check(current);
    for (const name of touched) showError(name, problems[name] ?? "");
    if (button && !busy) button.disabled = !rule.ready(current) || Object.keys(problems).length > 0;
  }

  function setBusy(on: boolean) {
    busy = on;
    form.setAttribute("aria-busy", String(on));
    if (!button || !label) return;
    button.classList.toggle("is-busy", on);
    button.disabled = on;
    label.textContent = on ? (button.dataset.busyLabel ?? idleLabel) : idleLabel;
    if (!on) update();
  }

  function fail(answer: AuthAnswer) {
    if (isBanAnswer(answer)) {
      // Why, until when and where to appeal, instead of a one-line error.
      if (formError) formError.textContent = "";
      showBanNotice(form, answer, kind === "login" ? "account" : "entry").focus?.();
      setBusy(false);
      return;
    }
    const fields = answer.fields ?? {};
    for (const [name, message] of Object.entries(fields)) {
      touched.add(name);
      showError(name, message);
    }
    // The guest call's failure text is its `message` field, the others' `error` (spec section 8).
    const text = kind === "guest" ? (answer.message ?? answer.error) : answer.error;
    if (formError) formError.textContent = text || rule.fallback;
    setBusy(false);
    const first = Object.keys(fields)[0];
    (first ? control(first) : formError)?.focus?.();
  }

  async function submit() {
    if (formError) formError.textContent = "";
    clearBanNotice(form);
    setBusy(true);
    try {
      const response = await fetch(rule.endpoint, {
        method: "POST",
        headers: { "content-type": "application/json", accept: "application/json", "accept-language": localeTag() },
        body: JSON.stringify(rule.payload(values())),
      });
      const answer = (await response.json().catch(() => ({}))) as AuthAnswer;
      const session = kind === "guest" ? answer.data : answer;
      if (!response.ok || !session?.token || session.user?.id === undefined) return fail(answer);
      localStorage.removeItem("token");
      localStorage.setItem("userId", String(session.user.id));
      writeCookie(FLASH_COOKIE, kind, 60);
      location.assign("/");
    } catch (error) {
      console.error(`${rule.fallback}:`, error);
      fail({});
    }
  }

  form.addEventListener("input", (event) => {
    // A mismatch shows while typing, and unticking the 18+ box at once; other messages wait
    // until the field is left (focusout).
    const name = event.target instanceof HTMLElement ? event.target.getAttribute("name") : null;
    if (name === "confirmPassword" || (name === "password" && values().confirmPassword)) touched.add("confirmPassword");
    if (name && event.target instanceof HTMLInputElement && event.target.type === "checkbox") touched.add(name);
    update();
  });
  form.addEventListener("change", update);
  form.addEventListener("focusout", (event) => {
    const name = event.target instanceof HTMLElement ? event.target.getAttribute("name") : null;
    if (name) touched.add(name);
    update();
  });
  form.addEventListener("submit", (event) => {
    event.preventDefault();
    const current = values();
    const problems = rule.check(current);
    if (busy || !rule.ready(current) || Object.keys(problems).length > 0) {
      for (const name of [...rule.required, ...Object.keys(problems)]) touched.add(name);
      update();
      return;
    }
    void submit();
  });
  update();
}
