// Posting one encrypted push to its endpoint without letting a subscription reach inside the
// network (issue 26). The host is resolved here and every address it gives must be public
// unicast (not loopback, private, link-local, unique-local, multicast or reserved), unless the
// operator named the host in PUSH_HOSTS. The connection is then made to the checked address
// itself (the request's `lookup` answers with it), so a second DNS answer cannot swap it
// (rebinding). A timeout bounds the whole request; redirects are never followed.
import { lookup as dnsLookup } from "node:dns/promises";
import { request } from "node:https";
import { rootCertificates } from "node:tls";
import type { LookupAddress } from "node:dns";
import type { LookupFunction } from "node:net";
import ipaddr from "ipaddr.js";
import type { Endpoint } from "./endpoint.ts";

export interface PushRequest {
  endpoint: Endpoint;
  headers: Record<string, string>;
  body: Buffer;
}

export interface PushAnswer {
  status: number;
}

/** Sends one request; answers the status, or throws (refused address, timeout, network). */
export type PushTransport = (req: PushRequest) => Promise<PushAnswer>;

export class RefusedAddress extends Error {}

const isPublic = (address: string): boolean => {
  try {
    return ipaddr.process(address).range() === "unicast";
  } catch {
    return false;
  }
};

export async function resolvePublic(host: string, operatorHost: boolean): Promise<LookupAddress> {
  if (ipaddr.isValid(host.replace(/^\[|\]$/g, ""))) throw new RefusedAddress(`push endpoint ${host} is an address literal`);
  const addresses = await dnsLookup(host, { all: true, verbatim: true });
  if (addresses.length === 0) throw new RefusedAddress(`push endpoint ${host} does not resolve`);
  if (!operatorHost) {
    const bad = addresses.find((a) => !isPublic(a.address));
    if (bad) throw new RefusedAddress(`push endpoint ${host} resolves to a non-public address`);
  }
  return addresses[0]!;
}

/** A `lookup` that answers only the address already checked. */
function pinnedLookup(pinned: LookupAddress): LookupFunction {
  return (_name, options, callback) => {
    if (options.all) (callback as (err: null, addresses: LookupAddress[]) => void)(null, [pinned]);
    else callback(null, pinned.address, pinned.family);
  };
}

export function httpsTransport(options: { timeoutMs: number; ca: string | null }): PushTransport {
  return async ({ endpoint, headers, body }) => {
    const { url, operatorHost } = endpoint;
    const host = url.hostname;
    const pinned = await resolvePublic(host, operatorHost);
    return new Promise<PushAnswer>((resolve, reject) => {
      const req = request(
        {
          method: "POST",
          host,
          servername: host,
          port: url.port === "" ? 443 : Number(url.port),
          path: url.pathname + url.search,
          headers: { ...headers, "content-length": String(body.length) },
          // The system's roots, plus PUSH_CA_FILE when set.
          ...(options.ca ? { ca: [...rootCertificates, options.ca] } : {}),
          timeout: options.timeoutMs,
          lookup: pinnedLookup(pinned),
        },
        (res) => {
          // Only the status matters; the body is read and dropped, at most a little of it.
          res.resume();
          res.on("end", () => resolve({ status: res.statusCode ?? 0 }));
          res.on("error", reject);
        },
      );
      const timer = setTimeout(() => req.destroy(new Error(`push to ${host} timed out`)), options.timeoutMs);
      req.on("timeout", () => req.destroy(new Error(`push to ${host} timed out`)));
      req.on("error", (error) => {
        clearTimeout(timer);
        reject(error);
      });
      req.on("close", () => clearTimeout(timer));
      req.end(body);
    });
  };
}
