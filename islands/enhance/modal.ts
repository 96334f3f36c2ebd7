// Turns the :target modal (src/pages/landing/AgreementModal.tsx) into a real dialog: opened by
// its links, focus kept inside while open, closed by Escape, the Close button or a click on the
// overlay, and focus returned to the link that opened it.
const focusable = 'a[href]:not([tabindex="-1"]), button:not([disabled]), input:not([disabled]), select, textarea, [tabindex="0"]';

export function enhanceModal(modal: HTMLElement, openers: Iterable<HTMLElement>): void {
  const box = modal.querySelector<HTMLElement>(".modal-box") ?? modal;
  box.tabIndex = -1;
  let returnTo: HTMLElement | null = null;

  const onKey = (event: KeyboardEvent) => {
    if (event.key === "Escape") {
      event.preventDefault();
      close();
    } else if (event.key === "Tab") {
      const items = [...box.querySelectorAll<HTMLElement>(focusable)];
      const first = items[0];
      const last = items[items.length - 1];
      if (!first || !last) return;
      const active = document.activeElement;
      if (event.shiftKey && (active === first || active === box)) {
        event.preventDefault();
        last.focus();
      } else if (!event.shiftKey && active === last) {
        event.preventDefault();
        first.focus();
      }
    }
  };

  function open(trigger: HTMLElement | null) {
    returnTo = trigger;
    modal.classList.remove("is-closed");
    modal.classList.add("is-open");
    document.addEventListener("keydown", onKey);
    box.focus();
  }

  function close() {
    modal.classList.remove("is-open");
    // The :target rule would keep it visible while the address still ends in #agreement.
    modal.classList.add("is-closed");
    if (location.hash === `#${modal.id}`) history.replaceState(null, "", location.pathname + location.search);
    document.removeEventListener("keydown", onKey);
    returnTo?.focus();
    returnTo = null;
  }

  for (const opener of openers) {
    opener.addEventListener("click", (event) => {
      event.preventDefault();
      open(opener);
    });
  }
  for (const closer of modal.querySelectorAll<HTMLElement>("[data-modal-close]")) {
    closer.addEventListener("click", (event) => {
      event.preventDefault();
      close();
    });
  }
  if (location.hash === `#${modal.id}`) open(null);
}
