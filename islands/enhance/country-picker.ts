// The searchable country picker with flags. It is built from the options of the server's plain
// <select> (so the list is sent once), keeps that select as the form's value and fires its
// `change` event, so form validation and a no-JavaScript post read the same field.
import { t } from "../i18n.ts";
import { searchCountries } from "../lib/country-search.ts";
import { flagOf } from "./flags.ts";

export interface CountryPicker {
  hasValue(): boolean;
  setDetecting(detecting: boolean): void;
  /** Picks a country; `detected` marks it as the one found from the visitor's address. */
  choose(code: string, detected?: boolean): void;
}

const el = <K extends keyof HTMLElementTagNameMap>(tag: K, className: string, text = ""): HTMLElementTagNameMap[K] => {
  const node = document.createElement(tag);
  node.className = className;
  node.textContent = text;
  return node;
};

export function enhanceCountryPicker(select: HTMLSelectElement): CountryPicker {
  const countries = [...select.options].filter((o) => o.value).map((o) => ({ code: o.value, name: o.text }));
  const id = select.id;
  const label = document.querySelector<HTMLLabelElement>(`label[for="${id}"]`);
  let detectedCode: string | null = null;
  let detecting = false;
  let active = -1;

  const picker = el("div", "picker");
  const button = el("button", "picker-button");
  button.type = "button";
  button.id = `${id}-button`;
  button.setAttribute("aria-haspopup", "listbox");
  button.setAttribute("aria-expanded", "false");
  const describedBy = select.getAttribute("aria-describedby");
  if (describedBy) button.setAttribute("aria-describedby", describedBy);
  if (label) {
    label.id ||= `${id}-label`;
    label.htmlFor = button.id;
    button.setAttribute("aria-labelledby", `${label.id} ${button.id}`);
  }

  const popup = el("div", "picker-popup");
  popup.hidden = true;
  const search = el("input", "picker-search");
  search.type = "text";
  search.placeholder = t("auth.search_countries");
  search.autocomplete = "off";
  search.setAttribute("role", "combobox");
  search.setAttribute("aria-label", t("auth.search_countries_label"));
  search.setAttribute("aria-expanded", "true");
  search.setAttribute("aria-autocomplete", "list");
  search.setAttribute("aria-controls", `${id}-list`);
  const list = el("ul", "picker-list");
  list.id = `${id}-list`;
  list.setAttribute("role", "listbox");
  list.setAttribute("aria-label", t("auth.countries"));
  const empty = el("p", "picker-empty", t("auth.no_countries"));
  empty.hidden = true;

  const items = countries.map((c) => {
    const li = el("li", "picker-option");
    li.id = `${id}-opt-${c.code}`;
    li.dataset.code = c.code;
    li.setAttribute("role", "option");
    li.append(el("span", "picker-flag", flagOf(c.code)), el("span", "picker-name", c.name));
    li.addEventListener("click", () => pick(c.code));
    list.append(li);
    return li;
  });

  popup.append(search, list, empty);
  picker.append(button, popup);
  select.hidden = true;
  select.required = false;
  select.tabIndex = -1;
  select.after(picker);

  const badge = () => el("span", "detected-badge", t("auth.detected"));

  function render() {
    const code = select.value;
    const country = countries.find((c) => c.code === code);
    // Not replaceChildren(): Chrome 86 / Firefox 78, newer than the minimum browsers.
    button.textContent = "";
    if (country) {
      button.append(el("span", "picker-flag", flagOf(country.code)), el("span", "picker-name", country.name));
      if (country.code === detectedCode) button.append(badge());
    } else {
      button.append(el("span", "picker-placeholder", detecting ? t("auth.detecting") : t("auth.select_country")));
    }
    for (const li of items) {
      li.setAttribute("aria-selected", String(li.dataset.code === code));
      li.querySelector(".detected-badge")?.remove();
      if (li.dataset.code === detectedCode) li.append(badge());
    }
  }

  // In list order, which the search re-ranks.
  const visible = () => [...list.children].filter((li): li is HTMLLIElement => li instanceof HTMLLIElement && !li.hidden);

  function setActive(index: number) {
    const shown = visible();
    items.forEach((li) => li.classList.remove("is-active"));
    active = Math.max(-1, Math.min(index, shown.length - 1));
    const current = shown[active];
    if (current) {
      current.classList.add("is-active");
      current.scrollIntoView({ block: "nearest" });
      search.setAttribute("aria-activedescendant", current.id);
    } else search.removeAttribute("aria-activedescendant");
  }

  function filter() {
    const query = search.value.trim();
    const ranked = searchCountries(countries, query).map((c) => c.code);
    const position = new Map(ranked.map((code, i) => [code, i]));
    const rankOf = (li: HTMLLIElement) => position.get(li.dataset.code ?? "") ?? countries.length;
    const ordered = [...items].sort((a, b) => rankOf(a) - rankOf(b));
    for (const li of ordered) li.hidden = !position.has(li.dataset.code ?? "");
    list.append(...ordered);
    empty.hidden = visible().length > 0;
    setActive(query ? 0 : -1);
  }

  function open() {
    popup.hidden = false;
    button.setAttribute("aria-expanded", "true");
    search.value = "";
    filter();
    search.focus();
    items.find((li) => li.dataset.code === select.value)?.scrollIntoView({ block: "nearest" });
  }

  function close(focusButton: boolean) {
    if (popup.hidden) return;
    popup.hidden = true;
    button.setAttribute("aria-expanded", "false");
    if (focusButton) button.focus();
  }

  function pick(code: string) {
    select.value = code;
    select.dispatchEvent(new Event("change", { bubbles: true }));
    render();
    close(true);
  }

  button.addEventListener("click", () => (popup.hidden ? open() : close(true)));
  button.addEventListener("keydown", (event) => {
    if (event.key === "ArrowDown") {
      event.preventDefault();
      open();
    }
  });
  // Keeps focus in the search box while an option is clicked, so focusout does not close first.
  list.addEventListener("mousedown", (event) => event.preventDefault());
  search.addEventListener("input", filter);
  search.addEventListener("keydown", (event) => {
    if (event.key === "ArrowDown" || event.key === "ArrowUp") {
      event.preventDefault();
      setActive(active + (event.key === "ArrowDown" ? 1 : -1));
    } else if (event.key === "Enter") {
      event.preventDefault();
      const code = visible()[Math.max(active, 0)]?.dataset.code;
      if (code) pick(code);
    } else if (event.key === "Escape") {
      event.preventDefault();
      close(true);
    }
  });
  picker.addEventListener("focusout", (event) => {
    if (!(event.relatedTarget instanceof Node) || !picker.contains(event.relatedTarget)) close(false);
  });
  document.addEventListener("click", (event) => {
    if (event.target instanceof Node && !picker.contains(event.target)) close(false);
  });
  // A server re-render with errors, or the browser restoring the form, changes the select.
  select.addEventListener("change", render);

  render();
  return {
    hasValue: () => select.value !== "",
    setDetecting(value) {
      detecting = value;
      render();
    },
    choose(code, detected = false) {
      if (!countries.some((c) => c.code === code)) return;
      if (detected) detectedCode = code;
      select.value = code;
      select.dispatchEvent(new Event("change", { bubbles: true }));
    },
  };
}
