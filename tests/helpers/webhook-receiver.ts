/**
 * A webhook receiver on loopback for the tests: every delivery it gets is verified with the npm
 * package standardwebhooks (written by others) under the secret the test sets, and recorded with
 * its webhook-id, its body and whether it verified. It answers 200, or the statuses queued with
 * `answerNext` first; `delayMs` holds each answer (deliveries still in flight).
 */
import { Webhook } from "standardwebhooks";

export interface Received {
  id: string;
  body: string;
  verified: boolean;
}

export function webhookReceiver(options: { delayMs?: number } = {}) {
  const got: Received[] = [];
  let secret = "";
  const answers: number[] = [];
  const server = Bun.serve({
    port: 0,
    hostname: "127.0.0.1",
    fetch: async (req) => {
      const body = await req.text();
      let verified = false;
      try {
        new Webhook(secret).verify(body, Object.fromEntries(req.headers));
        verified = true;
      } catch {}
      got.push({ id: req.headers.get("webhook-id") ?? "", body, verified });
      if (options.delayMs) await Bun.sleep(options.delayMs);
      return new Response(null, { status: answers.shift() ?? 200 });
    },
  });
  return {
    /** What it got, in order. */
    got,
    /** A URL of it. */
    url: (path = "/in") => `http://127.0.0.1:${server.port}${path}`,
    /** The secret deliveries are verified under from now on. */
    useSecret: (s: string) => {
      secret = s;
    },
    /** The statuses the next deliveries get, in order (then 200 again). */
    answerNext: (...statuses: number[]) => answers.push(...statuses),
    /** Waits until `n` distinct webhook-ids were received, at most `ms`. */
    async waitFor(n: number, ms = 10_000): Promise<void> {
      const end = Date.now() + ms;
      while (new Set(got.map((r) => r.id)).size < n && Date.now() < end) await Bun.sleep(20);
    },
    stop: () => server.stop(true),
  };
}
