// HTTP: the visitor's detected country, and the ISO list every country picker shows.
import { Elysia } from "elysia";
import type { AppContext } from "../context.ts";
import { clientAddress } from "../http/request.ts";
import { countries } from "./countries.ts";
import { countryOf, normaliseAddress } from "./lookup.ts";

export function geoRoutes(ctx: AppContext) {
  return new Elysia()
    .get("/api/geo/country", ({ request, server }) => {
      const ip = normaliseAddress(clientAddress(request, server?.requestIP(request)?.address, ctx.config));
      const country = countryOf(ip);
      if (!country) return { success: false, message: "Country not detected" };
      return { success: true, data: { detected: true, countryCode: country.code, countryName: country.name, ip } };
    })
    .get("/api/geo/countries", ({ set }) => {
      set.headers["cache-control"] = "public, max-age=86400";
      return { countries };
    });
}
