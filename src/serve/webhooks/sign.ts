/**
 * Standard Webhooks signatures (https://www.standardwebhooks.com): a secret `whsec_<base64 of 24
 * random bytes>`; each delivery carries `webhook-id` (the event's id, the same on every attempt),
 * `webhook-timestamp` (seconds) and `webhook-signature: v1,<base64 HMAC-SHA256 of
 * "<id>.<timestamp>.<body>" under the secret's bytes>`. Receivers verify with any Standard Webhooks
 * library (docs/webhooks.md).
 */
import { createHmac } from "node:crypto";

const PREFIX = "whsec_";

/** A new signing secret. */
export function newSecret(): string {
  return `${PREFIX}${Buffer.from(crypto.getRandomValues(new Uint8Array(24))).toString("base64")}`;
}

/** The three headers of one delivery attempt. */
export function signedHeaders(secret: string, id: string, body: string, timestampS: number): Record<string, string> {
  const key = Buffer.from(secret.startsWith(PREFIX) ? secret.slice(PREFIX.length) : secret, "base64");
  const signature = createHmac("sha256", key).update(`${id}.${timestampS}.${body}`).digest("base64");
  return { "webhook-id": id, "webhook-timestamp": String(timestampS), "webhook-signature": `v1,${signature}` };
}
