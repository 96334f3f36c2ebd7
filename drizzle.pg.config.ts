// PostgreSQL's migrations (DATABASE_URL=postgres://...): db/pg/schema.ts into db/migrations-pg.
// Generate with `node_modules/.bin/drizzle-kit generate --config drizzle.pg.config.ts`; SQLite's
// stay in drizzle.config.ts and db/migrations.
import { defineConfig } from "drizzle-kit";

export default defineConfig({
  dialect: "postgresql",
  schema: "./db/pg/schema.ts",
  out: "./db/migrations-pg",
});
