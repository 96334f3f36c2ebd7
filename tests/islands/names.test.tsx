// The name checks the browser makes before sending (issue 18): Edit Profile and the name modal
// show the server's own message as the person types and send nothing the server would refuse;
// the landing page's register form says the same about usernames and names.
import "../support/dom.ts"; // happy-dom in place before the islands load

import { describe, expect, test } from "bun:test";
import { act } from "react";
import NameModal from "../../islands/chat/NameModal.tsx";
import ProfileForm from "../../islands/chat/ProfileForm.tsx";
import { rules } from "../../islands/enhance/auth-rules.ts";
import { nameMessages } from "../../src/users/names/rules.ts";
import { me } from "./fixtures.ts";
import { chatDom, harness, json, settle } from "./harness.ts";
import { button } from "./queries.ts";

const { render } = chatDom();

const typeInto = (input: HTMLInputElement, value: string) =>
  act(async () => {
    Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, "value")?.set?.call(input, value);
    input.dispatchEvent(new Event("input", { bubbles: true }));
  });
const nameInput = (root: ParentNode) => root.querySelector("input") as HTMLInputElement;
const described = (input: HTMLInputElement) => document.getElementById(input.getAttribute("aria-describedby") ?? "")?.textContent ?? "";

describe("Edit Profile", () => {
  test("shows why a staff word is refused, marks the field and keeps Save Changes disabled", async () => {
    const { controller, calls } = harness();
    const el = await render(controller, <ProfileForm onDone={() => {}} />);
    const input = nameInput(el);
    await typeInto(input, "Moderator (Staff)");
    expect(described(input)).toBe("Names cannot use the word “moderator”. Please choose another one");
    expect(input.getAttribute("aria-invalid")).toBe("true");
    expect(button(el, "Save Changes")?.disabled).toBe(true);
    await act(async () => {
      el.querySelector("form")?.dispatchEvent(new Event("submit", { bubbles: true, cancelable: true }));
    });
    expect(calls.filter((c) => c.startsWith("PUT"))).toEqual([]);
  });

  test("accepts a name in another script and sends it", async () => {
    const { controller, calls } = harness({ "PUT /api/users/profile": () => ({ user: me({ name: "Дмитрий" }) }) });
    const el = await render(controller, <ProfileForm onDone={() => {}} />);
    const input = nameInput(el);
    await typeInto(input, "Дмитрий");
    expect(described(input)).toBe("");
    expect(input.hasAttribute("aria-invalid")).toBe(false);
    await act(async () => button(el, "Save Changes")?.click());
    await settle();
    expect(calls).toContain("PUT /api/users/profile");
  });

  test("shows the server's reason for the name when the server refuses it", async () => {
    const refusal = { error: "Please check the highlighted fields", code: "validation", fields: { name: "Names cannot use the word “stranger”. Please choose another one" } };
    const { controller, toasts } = harness({ "PUT /api/users/profile": () => json(400, refusal) });
    const el = await render(controller, <ProfileForm onDone={() => {}} />);
    // A look-alike only the server's skeleton catches (Cyrillic а).
    await typeInto(nameInput(el), "Strаnger");
    await act(async () => button(el, "Save Changes")?.click());
    await settle();
    expect(toasts).toContain(`error:${refusal.fields.name}`);
  });
});

describe("the name modal", () => {
  test("keeps Save disabled for an invisible name and says why", async () => {
    const { controller } = harness();
    const el = await render(controller, <NameModal onClose={() => {}} />);
    const input = nameInput(el);
    await typeInto(input, "\u200B\u200B");
    expect(described(input)).toBe(nameMessages.nameHidden);
    expect(button(el, "Save")?.disabled).toBe(true);
  });
});

describe("the register form's live checks", () => {
  const values = { username: "dana_29", email: "dana@example.com", password: "correct horse", confirmPassword: "correct horse", name: "Dana", gender: "female", age: "29", country_code: "PL", adult: "on" };

  test("refuse reserved usernames with the server's words", () => {
    expect(rules.register.check({ ...values, username: "Support_Team" }).username).toBe("Usernames cannot contain “support”. Please choose another one");
    expect(rules.register.check({ ...values, username: "ab" }).username).toBe(nameMessages.username);
  });

  test("refuse display names the server refuses, with its words", () => {
    expect(rules.register.check({ ...values, name: "Stranger" }).name).toBe("Names cannot use the word “stranger”. Please choose another one");
    expect(rules.register.check({ ...values, name: "Ann\u202Eeil" }).name).toBe(nameMessages.nameHidden);
    expect(rules.register.check({ ...values, name: "a" + "\u0301".repeat(45) }).name).toBe(nameMessages.nameMarks);
    expect(rules.register.check({ ...values, name: "   " }).name).toBe(nameMessages.nameLength);
  });

  test("let ordinary names in any script through", () => {
    for (const name of ["José", "Дмитрий", "李小龙", "محمد", "🦊"]) expect(rules.register.check({ ...values, name })).toEqual({});
  });
});
