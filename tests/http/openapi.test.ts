// The API document (/api/openapi.json) and its page (/api/docs). The contract's route tables are
// read from tests/http/fixtures/API.md, a verbatim copy of the shared contract (CI has only this
// repository): a route added to the contract but missing from the document fails here.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { guestBody, loginBody, registerBody } from "../../src/auth/model.ts";
import { reportBody } from "../../src/reports/model.ts";
import { serverEventSchemas } from "../../src/realtime/event-schemas.ts";
import { clientEvents } from "../../src/realtime/protocol.ts";
import { profileBody } from "../../src/users/model.ts";
import { typeText } from "../../src/api-docs/type-text.ts";
import { makeTestApp, type TestApp } from "../support/app.ts";

const contract = readFileSync(join(import.meta.dir, "fixtures", "API.md"), "utf8");

interface ContractRoute {
  method: string;
  path: string;
  row: string;
}

/** Every `| METHOD /path | ...` row of the contract's tables. */
const contractRoutes: ContractRoute[] = [...contract.matchAll(/^\| (GET|POST|PUT|DELETE|PATCH) (\/\S+) \|.*$/gm)].map((m) => ({
  method: m[1]!,
  path: m[2]!,
  row: m[0],
}));

/** Parameter names differ between the prose and the code (":path" vs "{path}"): compare shapes. */
const shape = (path: string) => path.replace(/:[^/]+|\{[^}]+\}/g, "{}");

/** POST/PUT routes the contract gives no body: the call itself is the request. */
const BODYLESS = new Set(["POST /api/auth/logout", "POST /api/users/confirm-adult", "PUT /api/messages/mark-read/{}"]);

/** The schema each route checks its JSON body with: the document must show exactly that one. */
const validatedWith: Record<string, unknown> = {
  "POST /api/auth/register": registerBody,
  "POST /api/auth/login": loginBody,
  "POST /api/guest/create": guestBody,
  "PUT /api/users/profile": profileBody,
  "POST /api/reports": reportBody,
};

let t: TestApp;
let document: any;
beforeAll(async () => {
  t = makeTestApp();
  const answer = await t.call("GET", "/api/openapi.json");
  expect(answer.status).toBe(200);
  document = answer.body;
});
afterAll(() => t.close());

function operationOf(method: string, path: string) {
  const key = Object.keys(document.paths).find((p) => shape(p) === shape(path));
  return key ? document.paths[key][method.toLowerCase()] : undefined;
}

describe("the OpenAPI document", () => {
  test("reads a route table out of the contract copy", () => {
    expect(contractRoutes.length).toBeGreaterThan(25);
    expect(contractRoutes.map((r) => `${r.method} ${r.path}`)).toContain("PUT /api/messages/mark-read/:senderId");
  });

  test("has every route of the contract with its method", () => {
    const missing = contractRoutes.filter((r) => !operationOf(r.method, r.path)).map((r) => `${r.method} ${r.path}`);
    expect(missing).toEqual([]);
  });

  test("gives every contract route a summary and a success answer", () => {
    for (const { method, path } of contractRoutes) {
      const operation = operationOf(method, path);
      expect({ route: `${method} ${path}`, summary: typeof operation.summary }).toEqual({ route: `${method} ${path}`, summary: "string" });
      expect(Object.keys(operation.responses).some((status) => status.startsWith("2"))).toBe(true);
    }
  });

  test("shows the schema of every body the contract's POST and PUT routes take", () => {
    const withoutSchema: string[] = [];
    for (const { method, path, row } of contractRoutes) {
      if ((method !== "POST" && method !== "PUT") || BODYLESS.has(`${method} ${shape(path)}`)) continue;
      const type = row.includes("multipart") ? "multipart/form-data" : "application/json";
      const schema = operationOf(method, path).requestBody?.content?.[type]?.schema;
      if (!schema?.properties) withoutSchema.push(`${method} ${path} (${type})`);
    }
    expect(withoutSchema).toEqual([]);
  });

  test("documents a JSON body with the very schema the route validates it with", () => {
    for (const [route, schema] of Object.entries(validatedWith)) {
      const [method, path] = route.split(" ") as [string, string];
      expect(operationOf(method, path).requestBody.content["application/json"].schema).toEqual(JSON.parse(JSON.stringify(schema)));
    }
  });

  test("documents the query a route validates, beside its path parameter", () => {
    const names = operationOf("GET", "/api/messages/:contactId").parameters.map((p: { in: string; name: string }) => `${p.in}:${p.name}`);
    expect(names).toEqual(["path:contactId", "query:limit", "query:before"]);
  });

  test("marks the routes that need no token, and only those", () => {
    const open = Object.entries(document.paths).flatMap(([path, item]: [string, any]) =>
      Object.entries(item).filter(([, op]: [string, any]) => op.security?.length === 0).map(([method]) => `${method.toUpperCase()} ${path}`),
    );
    expect(open.sort()).toEqual(
      ["GET /api/geo/countries", "GET /api/geo/country", "GET /api/push/key", "GET /healthz", "GET /uploads/{path}", "POST /api/auth/login", "POST /api/auth/register", "POST /api/guest/create"].sort(),
    );
  });

  test("holds only the public API: no console, page, form post or PeerJS route, and no secret", async () => {
    const paths = Object.keys(document.paths);
    expect(paths.filter((p) => !/^\/(api|uploads)\/|^\/healthz$/.test(p))).toEqual([]);
    expect(JSON.stringify(document)).not.toContain(t.ctx.config.secret);
    expect(JSON.stringify(document)).not.toContain("/mod/");
  });

  test("lists every socket event with the schema of its data", () => {
    const events = document["x-socket-events"];
    expect(Object.keys(events.clientToServer).sort()).toEqual(Object.keys(clientEvents).sort());
    expect(Object.keys(events.serverToClient).sort()).toEqual(Object.keys(serverEventSchemas).sort());
    expect(events.clientToServer.send_message.data.required).toEqual(["receiverId", "content"]);
  });

  test("is public: no token needed", async () => {
    const answer = await t.call("GET", "/api/openapi.json");
    expect(answer.status).toBe(200);
    expect(answer.headers.get("content-type")).toContain("application/json");
  });
});

describe("the docs page", () => {
  let page: { status: number; headers: Headers; text: string };
  beforeAll(async () => {
    page = await t.call("GET", "/api/docs");
  });

  test("renders every documented route", () => {
    expect(page.status).toBe(200);
    const routes = Object.entries(document.paths).flatMap(([path, item]) => Object.keys(item as object).map((method) => `${method.toUpperCase()} ${path}`));
    expect(routes.filter((route) => !page.text.includes(`data-route="${route}"`))).toEqual([]);
  });

  test("lists the socket events both ways, with their payload types", () => {
    const names = [...Object.keys(clientEvents), ...Object.keys(serverEventSchemas)];
    expect(names.filter((name) => !page.text.includes(`data-event="${name}"`))).toEqual([]);
    expect(page.text).toContain("Client to server");
    expect(page.text).toContain("Server to client");
    // Nested entities are shown by name; unions spelled out.
    expect(page.text).toContain("{ message: Message }");
    expect(page.text).toContain("&quot;offline&quot; | &quot;busy&quot; | &quot;declined&quot; | &quot;no_answer&quot;");
  });

  test("is served with the site's CSP and loads nothing, least of all from elsewhere", () => {
    expect(page.headers.get("content-type")).toStartWith("text/html");
    const csp = page.headers.get("content-security-policy") ?? "";
    expect(csp).toContain("script-src 'self'");
    expect(csp).toContain("default-src 'self'");
    expect(page.text).not.toContain("<script");
    expect(page.text).not.toMatch(/<link[^>]+stylesheet/);
    expect(page.text).not.toMatch(/(src|href)="(https?:)?\/\//);
  });
});

describe("typeText", () => {
  test("writes objects, optional fields, arrays of unions and named entities", () => {
    const schema = {
      type: "object",
      required: ["a"],
      properties: {
        a: { type: "array", items: { anyOf: [{ type: "integer" }, { type: "string" }] } },
        b: { title: "Message", type: "object" },
        c: { $ref: "#/components/schemas/PublicUser" },
      },
    };
    expect(typeText(schema)).toBe("{ a: (integer | string)[]; b?: Message; c?: PublicUser }");
  });
});
