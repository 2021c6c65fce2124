/**
 * The browsable API page at /docs (@elysiajs/swagger), reading our OpenAPI 3.1.0 document
 * at /openapi.json.
 */
import { swagger } from "@elysiajs/swagger";

export function docsPage() {
  return swagger({
    path: "/docs",
    documentation: { info: { title: "artmarket API", version: "1" } },
    scalarConfig: { spec: { url: "/openapi.json" } } as never,
  });
}
