// HTTP: the visitor's detected country, and the ISO list every country picker shows.
import { Elysia } from "elysia";
import { Type as t } from "@sinclair/typebox";
import { operation } from "../api-docs/operation.ts";
import type { AppContext } from "../context.ts";
import { clientAddress } from "../http/request.ts";
import { countries } from "./countries.ts";
import { countryOf, normaliseAddress } from "./lookup.ts";

const detectedCountry = t.Union([
  t.Object({ success: t.Literal(true), data: t.Object({ detected: t.Literal(true), countryCode: t.String(), countryName: t.String(), ip: t.String() }) }),
  t.Object({ success: t.Literal(false), message: t.String() }),
]);

export function geoRoutes(ctx: AppContext) {
  return new Elysia()
    .get("/api/geo/country", ({ request, server }) => {
      const ip = normaliseAddress(clientAddress(request, server?.requestIP(request)?.address, ctx.config));
      const country = countryOf(ip);
      if (!country) return { success: false, message: "Country not detected" };
      return { success: true, data: { detected: true, countryCode: country.code, countryName: country.name, ip } };
    }, {
      detail: operation({
        tag: "Geo",
        summary: "The visitor's country, from an offline IP database",
        description: "The address is the socket's, or X-Forwarded-For's only when TRUST_PROXY is set.",
        public: true,
        ok: { description: "Detected, or success false", schema: detectedCountry },
      }),
    })
    .get("/api/geo/countries", ({ set }) => {
      set.headers["cache-control"] = "public, max-age=86400";
      return { countries };
    }, {
      detail: operation({
        tag: "Geo",
        summary: "Every ISO 3166-1 country, for country pickers",
        public: true,
        ok: { description: "Code and name of each", schema: t.Object({ countries: t.Array(t.Object({ code: t.String(), name: t.String() })) }) },
      }),
    });
}
