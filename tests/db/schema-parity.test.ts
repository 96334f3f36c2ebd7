// The two schema files (db/schema.ts for SQLite, db/pg/schema.ts for PostgreSQL) export the same
// tables with the same row types, so a service compiled against one runs on the other. The
// checks are types: a drifted column fails `tsc --noEmit`; the test below also checks at run time
// that both files export the same tables with the same column names.
import { expect, test } from "bun:test";
import { getTableColumns, getTableName, is, Table } from "drizzle-orm";
import * as pg from "../../db/pg/schema.ts";
import * as lite from "../../db/schema.ts";

type Equal<A, B> = (<T>() => T extends A ? 1 : 2) extends <T>() => T extends B ? 1 : 2 ? true : false;
type Expect<T extends true> = T;
type Tables = { [K in keyof typeof lite]: (typeof lite)[K] extends Table ? K : never }[keyof typeof lite];
type SameRows<K extends Tables> = K extends keyof typeof pg
  ? (typeof pg)[K] extends Table
    ? Equal<(typeof lite)[K]["$inferSelect"], (typeof pg)[K]["$inferSelect"]> extends true
      ? Equal<(typeof lite)[K]["$inferInsert"], (typeof pg)[K]["$inferInsert"]>
      : false
    : false
  : false;
type AllSame = { [K in Tables]: SameRows<K> }[Tables];
// Compiles only when every table's select and insert rows match between the dialects.
export type SchemaParity = Expect<Equal<AllSame, true>>;
// And neither file exports a table the other lacks.
export type SameExports = Expect<Equal<Exclude<keyof typeof lite, keyof typeof pg>, never>> & Expect<Equal<Exclude<keyof typeof pg, keyof typeof lite>, never>>;

const tablesOf = (module: Record<string, unknown>) =>
  Object.fromEntries(
    Object.entries(module)
      .filter((entry): entry is [string, Table] => is(entry[1], Table))
      .map(([name, table]) => [name, { table: getTableName(table), columns: Object.fromEntries(Object.entries(getTableColumns(table)).map(([key, column]) => [key, column.name])) }]),
  );

test("both dialects' schema files export the same tables, with the same table and column names", () => {
  const sqlite = tablesOf(lite);
  expect(Object.keys(sqlite).length).toBeGreaterThan(10);
  expect(tablesOf(pg)).toEqual(sqlite);
});
