// The human page at /api/docs: the routes of the generated document, then the socket events.
// Rendered on the server from the document alone, with no script and nothing from another
// origin, so it works offline and under the site's Content-Security-Policy.
import { typeText, type JsonSchema } from "./type-text.ts";

const METHODS = ["get", "post", "put", "patch", "delete", "head"] as const;

interface Operation {
  tags?: string[];
  summary?: string;
  description?: string;
  security?: unknown[];
  requestBody?: { content?: Record<string, { schema?: JsonSchema }> };
  responses?: Record<string, { description?: string; content?: Record<string, { schema?: JsonSchema }> }>;
  parameters?: { name: string; in: string; required?: boolean; schema?: JsonSchema }[];
}

interface SocketEvent {
  summary: string;
  data: JsonSchema;
}

/** What the page reads of the document, as it reads it: parsed from the JSON that is served. */
export interface PageDocument {
  openapi: string;
  info: { title: string; description: string };
  tags: { name: string; description: string }[];
  paths: Record<string, Partial<Record<(typeof METHODS)[number], Operation>>>;
  components: { schemas: Record<string, JsonSchema> };
  "x-socket-events": { path: string; clientToServer: Record<string, SocketEvent>; serverToClient: Record<string, SocketEvent> };
}

interface Row {
  method: string;
  path: string;
  operation: Operation;
}

function rowsOf(document: PageDocument): Row[] {
  const rows: Row[] = [];
  for (const [path, item] of Object.entries(document.paths)) {
    for (const method of METHODS) {
      const operation = item[method];
      if (operation) rows.push({ method: method.toUpperCase(), path, operation });
    }
  }
  return rows;
}

function Body({ operation }: { operation: Operation }) {
  const content = operation.requestBody?.content ?? {};
  return (
    <>
      {Object.entries(content).map(([type, { schema }]) => (
        <div key={type}>
          <small>{type}</small>
          <code>{schema ? typeText(schema) : ""}</code>
        </div>
      ))}
      {(operation.parameters ?? []).map((p) => (
        <div key={`${p.in}:${p.name}`}>
          <small>{p.in}</small> <code>{`${p.name}${p.required ? "" : "?"}: ${p.schema ? typeText(p.schema, false) : "string"}`}</code>
        </div>
      ))}
    </>
  );
}

function Answers({ operation }: { operation: Operation }) {
  return (
    <>
      {Object.entries(operation.responses ?? {}).map(([status, response]) => {
        const schema = response.content?.["application/json"]?.schema;
        return (
          <div key={status}>
            <b>{status}</b> {status.startsWith("2") && schema ? <code>{typeText(schema)}</code> : response.description}
          </div>
        );
      })}
    </>
  );
}

function RouteTable({ tag, description, rows }: { tag: string; description: string; rows: Row[] }) {
  return (
    <section>
      <h2 id={`tag-${tag}`}>{tag}</h2>
      <p>{description}</p>
      <table>
        <thead>
          <tr>
            <th>Route</th>
            <th>What it does</th>
            <th>Sends</th>
            <th>Answers</th>
          </tr>
        </thead>
        <tbody>
          {rows.map(({ method, path, operation }) => (
            <tr key={`${method} ${path}`} data-route={`${method} ${path}`}>
              <td>
                <code>
                  {method} {path}
                </code>
                {operation.security?.length === 0 ? <small> no token</small> : null}
              </td>
              <td>
                {operation.summary}
                {operation.description ? <p>{operation.description}</p> : null}
              </td>
              <td>
                <Body operation={operation} />
              </td>
              <td>
                <Answers operation={operation} />
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </section>
  );
}

function EventTable({ title, events }: { title: string; events: Record<string, SocketEvent> }) {
  return (
    <section>
      <h3>{title}</h3>
      <table>
        <thead>
          <tr>
            <th>Event</th>
            <th>data</th>
            <th>Meaning</th>
          </tr>
        </thead>
        <tbody>
          {Object.entries(events).map(([name, event]) => (
            <tr key={name} data-event={name}>
              <td>
                <code>{name}</code>
              </td>
              <td>
                <code>{typeText(event.data)}</code>
              </td>
              <td>{event.summary}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </section>
  );
}

function Entities({ document }: { document: PageDocument }) {
  const { Error: _, ...entities } = document.components.schemas;
  return (
    <section>
      <h2 id="entities">Entities</h2>
      <dl>
        {Object.entries(entities).map(([name, schema]) => (
          <div key={name}>
            <dt>{name}</dt>
            <dd>
              <code>{typeText(schema)}</code>
            </dd>
          </div>
        ))}
      </dl>
    </section>
  );
}

const css = `
body{font:15px/1.5 system-ui,sans-serif;margin:0 auto;max-width:72rem;padding:1rem 1.5rem;color:#1f1f29}
table{border-collapse:collapse;width:100%;margin-bottom:1.5rem}
th,td{border-bottom:1px solid #e3e0ea;padding:.4rem .5rem;text-align:left;vertical-align:top}
code{font:13px/1.4 ui-monospace,monospace;word-break:break-word}
small{color:#6b6680;margin-right:.3rem}
td p{margin:.3rem 0 0;color:#4a4560}
nav a{margin-right:1rem}
`;

export function DocsPage({ document }: { document: PageDocument }) {
  const rows = rowsOf(document);
  const events = document["x-socket-events"];
  return (
    <html lang="en">
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <meta name="robots" content="noindex" />
        <title>{document.info.title}</title>
        <style>{css}</style>
      </head>
      <body>
        <h1>{document.info.title}</h1>
        <p>{document.info.description}</p>
        <p>
          The same document as JSON: <a href="/api/openapi.json">/api/openapi.json</a> (OpenAPI {document.openapi}).
        </p>
        <nav>
          {document.tags.map((tag) => (
            <a key={tag.name} href={`#tag-${tag.name}`}>
              {tag.name}
            </a>
          ))}
          <a href="#entities">Entities</a>
          <a href="#socket">Socket events</a>
        </nav>
        {document.tags.map((tag) => (
          <RouteTable key={tag.name} tag={tag.name} description={tag.description} rows={rows.filter((r) => r.operation.tags?.includes(tag.name))} />
        ))}
        <Entities document={document} />
        <section>
          <h2 id="socket">Socket events at {events.path}</h2>
          <p>
            Open <code>{`${events.path}?token=<token>`}</code>. Every frame is one JSON object{" "}
            <code>{`{"event": name, "data": {...}, "ack"?: n}`}</code>; an ack is answered with{" "}
            <code>{`{"ack": n, "data": {...}}`}</code> or <code>{`{"ack": n, "error": {code, message}}`}</code>.
          </p>
          <EventTable title="Client to server" events={events.clientToServer} />
          <EventTable title="Server to client" events={events.serverToClient} />
        </section>
      </body>
    </html>
  );
}
