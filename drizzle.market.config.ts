import { defineConfig } from "drizzle-kit";
export default defineConfig({ dialect: "sqlite", schema: "./src/db/schema/market.ts", out: "./src/db/migrations/market" });
