// A JSON schema as one line of TypeScript-like text, for people reading the docs page.
// Named entities (a `title`, or a $ref) are shown by name below the top level.

export interface JsonSchema {
  type?: string;
  title?: string;
  $ref?: string;
  const?: unknown;
  anyOf?: JsonSchema[];
  allOf?: JsonSchema[];
  properties?: Record<string, JsonSchema>;
  required?: string[];
  patternProperties?: Record<string, JsonSchema>;
  items?: JsonSchema;
  format?: string;
}

/** Parenthesised where `[]` or `&` would otherwise bind to its last part only. */
const wrap = (text: string) => (/ [|&] /.test(text) ? `(${text})` : text);

export function typeText(schema: JsonSchema, top = true): string {
  if (schema.$ref) return schema.$ref.slice(schema.$ref.lastIndexOf("/") + 1);
  if (!top && schema.title) return schema.title;
  if (schema.const !== undefined) return JSON.stringify(schema.const);
  if (schema.anyOf) return schema.anyOf.map((s) => typeText(s, false)).join(" | ");
  if (schema.allOf) return schema.allOf.map((s) => wrap(typeText(s, false))).join(" & ");
  switch (schema.type) {
    case "object":
      return objectText(schema);
    case "array":
      return `${wrap(typeText(schema.items ?? {}, false))}[]`;
    case "string":
      return schema.format === "date-time" ? "string (ISO time)" : schema.format === "binary" ? "file" : "string";
    case "integer":
    case "number":
    case "boolean":
    case "null":
      return schema.type;
    default:
      return "unknown";
  }
}

function objectText(schema: JsonSchema): string {
  const required = new Set(schema.required ?? []);
  const fields = Object.entries(schema.properties ?? {}).map(([name, s]) => `${name}${required.has(name) ? "" : "?"}: ${typeText(s, false)}`);
  for (const value of Object.values(schema.patternProperties ?? {})) fields.push(`[key: string]: ${typeText(value, false)}`);
  return fields.length === 0 ? "{}" : `{ ${fields.join("; ")} }`;
}
