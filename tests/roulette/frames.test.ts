// roulette_partner_found is joined from a cached JSON fragment rather than serialised per pairing:
// it must read exactly as the object would, whatever the profile holds, and name no user.
import { describe, expect, test } from "bun:test";
import { asStranger, partnerFoundFrame } from "../../src/realtime/handlers/roulette.ts";
import { encodeEvent } from "../../src/realtime/hub.ts";
import type { RouletteProfile } from "../../src/roulette/queue.ts";

const profiles: RouletteProfile[] = [
  { userId: 7, gender: "female", countryCode: "DE", countryName: "Germany", age: 30 },
  { userId: 8, gender: "male", countryCode: null, countryName: null, age: null },
  { userId: 9, gender: "male", countryCode: "CI", countryName: 'Côte d\'Ivoire "quoted" \\ \u2028 \n', age: 99 },
  { userId: 10, gender: "female", countryCode: "FR" },
  { userId: 11, gender: "female", countryCode: "BR", languages: ["pt", "en"] },
];
const shares = [[], ["chess"], ["чтение", "hiking \"x\""]];

describe("roulette_partner_found frame", () => {
  test("is the same text encodeEvent gives, for either side", () => {
    for (const profile of profiles) {
      for (const shouldCreateOffer of [true, false]) for (const shared of shares) {
        const id = "AbC-_09xyzAbC-_09xyzAb";
        expect(partnerFoundFrame(id, profile, shouldCreateOffer, shared)).toBe(encodeEvent("roulette_partner_found", { partner: asStranger(profile, id, shared), shouldCreateOffer }));
      }
    }
  });

  test("carries neither the user id nor anything but what a stranger may know", () => {
    const frame = JSON.parse(partnerFoundFrame("x".repeat(22), { userId: 123456, gender: "female", countryCode: "DE", countryName: "Germany", age: 30 }, true));
    expect(Object.keys(frame.data.partner).sort()).toEqual(["age", "country_code", "country_name", "gender", "id", "languages", "name", "sharedInterests"]);
    expect(JSON.stringify(frame)).not.toContain("123456");
  });
});
