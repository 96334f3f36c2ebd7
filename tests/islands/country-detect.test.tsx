// The detected country, and US, United States where detection fails (spec sections 4 and 9): the
// register form sets only a detected country; Edit Profile, for someone without one (every guest),
// offers it first in the picker without choosing it.
import "../support/dom.ts"; // happy-dom in place before the islands load

import { describe, expect, spyOn, test } from "bun:test";
import { act } from "react";
import ProfileForm from "../../islands/chat/ProfileForm.tsx";
import { detectCountry, FALLBACK_COUNTRY } from "../../islands/lib/country-detect.ts";
import { me } from "./fixtures.ts";
import { chatDom, harness, settle, text } from "./harness.ts";

const { render } = chatDom();

const json = (body: unknown, status = 200) => async () => new Response(JSON.stringify(body), { status, headers: { "content-type": "application/json" } });

describe("country detection", () => {
  test("gives the detected country when the server found one", async () => {
    const found = await detectCountry(json({ success: true, data: { detected: true, countryCode: "FR", countryName: "France", ip: "x" } }));
    expect(found).toEqual({ code: "FR", name: "France", detected: true });
  });

  test("falls back to US, United States, marked as not detected, whenever detection fails", async () => {
    const info = spyOn(console, "info").mockImplementation(() => {});
    expect(await detectCountry(json({ success: false, message: "Country not detected" }))).toEqual(FALLBACK_COUNTRY);
    expect(await detectCountry(json({ error: "Too many requests" }, 429))).toEqual(FALLBACK_COUNTRY);
    expect(await detectCountry(async () => new Response("<html>bad gateway</html>", { status: 502 }))).toEqual(FALLBACK_COUNTRY);
    expect(await detectCountry(async () => Promise.reject(new TypeError("Failed to fetch")))).toEqual(FALLBACK_COUNTRY);
    expect(FALLBACK_COUNTRY).toEqual({ code: "US", name: "United States", detected: false });
    info.mockRestore();
  });
});

describe("Edit Profile without a country", () => {
  const countries = { countries: [{ code: "DE", name: "Germany" }, { code: "FR", name: "France" }, { code: "US", name: "United States" }] };

  async function openPicker(geo: unknown, user = me({ country_code: null, country_name: null, is_guest: true })) {
    const saved: unknown[] = [];
    const { controller, calls } = harness(
      {
        "GET /api/geo/country": () => geo,
        "GET /api/geo/countries": () => countries,
        "PUT /api/users/profile": (init) => {
          saved.push(JSON.parse(String(init?.body)));
          return { user };
        },
      },
      user,
    );
    const info = spyOn(console, "info").mockImplementation(() => {});
    const el = await render(controller, <ProfileForm onDone={() => {}} />);
    await settle();
    act(() => el.querySelector<HTMLButtonElement>(".country-picker .select-like")?.click());
    await settle();
    info.mockRestore();
    const options = [...el.querySelectorAll(".country-popover li")].map((li) => text(li).replace(/\s+/g, " ").trim());
    return { el, options, saved, calls };
  }

  test("offers US, United States first, as a suggestion, when detection fails, and sets nothing until one is picked", async () => {
    const { el, options, saved } = await openPicker({ success: false, message: "Country not detected" });
    expect(options[0]).toEndWith("United States Suggested");
    expect(options.slice(1)).toEqual([expect.stringContaining("Germany"), expect.stringContaining("France")]);
    expect(text(el.querySelector(".country-picker .select-like"))).toBe("Select country");
    await act(async () => {
      el.querySelector<HTMLFormElement>("form.profile-form")?.requestSubmit();
    });
    await settle();
    expect(saved).toEqual([expect.objectContaining({ country_code: null, country_name: null })]);
  });

  test("offers the detected country first, with its badge", async () => {
    const { options, calls } = await openPicker({ success: true, data: { detected: true, countryCode: "FR", countryName: "France", ip: "x" } });
    expect(options[0]).toEndWith("France Detected");
    expect(calls).toContain("GET /api/geo/country");
  });

  test("someone who has a country is not asked about it at all", async () => {
    const { options, calls } = await openPicker({ success: true, data: { detected: true, countryCode: "FR", countryName: "France", ip: "x" } }, me({ country_code: "DE", country_name: "Germany" }));
    expect(options.map((o) => o.replace(/^\S+ /, ""))).toEqual(["Germany", "France", "United States"]);
    expect(calls).not.toContain("GET /api/geo/country");
  });
});
