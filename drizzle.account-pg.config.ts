import { defineConfig } from "drizzle-kit";
export default defineConfig({ dialect: "postgresql", schema: "./src/db/schema/account-pg.ts", out: "./src/db/migrations/account-pg" });
