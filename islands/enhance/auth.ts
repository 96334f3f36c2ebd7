// The landing page's script (no React): enhances the three auth forms, the country picker with
// detection, and the User Agreement modal. Everything here also works without it, more plainly.
import "../legacy/fallbacks.ts";
import { detectCountry } from "../lib/country-detect.ts";
import { enhanceAuthForm } from "./auth-form.ts";
import type { AuthKind } from "./auth-rules.ts";
import { enhanceCountryPicker } from "./country-picker.ts";
import { enhanceModal } from "./modal.ts";
import { markRan } from "../legacy/ran.ts";
import { registerServiceWorker } from "../sw/register.ts";
import { readPageStrings } from "../i18n.ts";

markRan("auth");
// The page's words (auth.*, mod.*, error.*) before any form is enhanced.
readPageStrings();
registerServiceWorker();

const kinds: AuthKind[] = ["login", "register", "guest"];

for (const form of document.querySelectorAll<HTMLFormElement>("form[data-auth-form]")) {
  const kind = kinds.find((k) => k === form.dataset.authForm);
  if (kind) enhanceAuthForm(form, kind);
}

const modal = document.getElementById("agreement");
if (modal) enhanceModal(modal, document.querySelectorAll<HTMLElement>("[data-open-agreement]"));

const select = document.querySelector<HTMLSelectElement>("select[data-country-select]");
const registerTab = document.querySelector<HTMLInputElement>("#tab-register");
if (select && registerTab) {
  const picker = enhanceCountryPicker(select);
  let detecting = false;

  // Spec section 4: on the Register tab, detect when no country is chosen and none is being
  // detected. Only a detected country is set: after a failure (logged by detectCountry, whose
  // US fallback is not applied here) the visitor picks one by hand.
  const detect = async () => {
    if (!registerTab.checked || picker.hasValue() || detecting) return;
    detecting = true;
    picker.setDetecting(true);
    try {
      const country = await detectCountry();
      if (country.detected && !picker.hasValue()) picker.choose(country.code, true);
    } finally {
      detecting = false;
      picker.setDetecting(false);
    }
  };

  registerTab.addEventListener("change", () => void detect());
  void detect();
}
