/**
 * The thread behind SyncPg (sync-client.ts): it holds one PostgreSQL connection (Bun's client),
 * runs each statement the owning thread posts, and answers on the shared channel; it also
 * listens for the account epoch's notifications and writes the epoch into a shared cell.
 */
declare const self: Worker;

type Statement = { sql: string; params: unknown[]; mode: "rows" | "count" | "script" };
type Init = {
  url: string;
  port: MessagePort;
  flag: Int32Array;
  epoch: Float64Array;
  listen: string | null;
  /** The follows channel and the shared versions it moves: one counter per slot of user ids, and a generation. */
  follows: { channel: string; versions: Int32Array; generation: Int32Array } | null;
};

/** BigInt (int8, numeric counts) to number, Buffer to plain bytes: the rows SQLite would answer. */
function plain(value: unknown): unknown {
  if (typeof value === "bigint") return Number(value);
  if (value instanceof Uint8Array) return new Uint8Array(value);
  return value;
}

function rowsOf(result: Record<string, unknown>[]): Record<string, unknown>[] {
  const out: Record<string, unknown>[] = new Array(result.length);
  for (let i = 0; i < result.length; i++) {
    const row = result[i]!;
    const copy: Record<string, unknown> = {};
    for (const k in row) copy[k] = plain(row[k]);
    out[i] = copy;
  }
  return out;
}

/**
 * Bun's client warns each time it fails to re-subscribe a LISTEN after its connection dropped
 * (with a backoff up to 32 s, per channel): during an outage of the store that is a line every
 * few seconds per thread, beside the one line the request path logs for the outage
 * (src/db/pg/outage.ts). The first failure is shown; the next ones are not until the store has
 * answered again.
 */
let listenWarned = false;
function quietListenRetries(): void {
  const warn = console.warn.bind(console);
  console.warn = (...args: unknown[]) => {
    if (typeof args[0] === "string" && args[0].startsWith("bun:sql LISTEN ")) {
      if (listenWarned) return;
      listenWarned = true;
      warn(`${args[0]} (further LISTEN retries are not logged until the account store answers again)`, ...args.slice(1));
      return;
    }
    warn(...args);
  };
}

self.onmessage = async (event: MessageEvent<Init>) => {
  const { url, port, flag, epoch, listen, follows } = event.data;
  const sql = new Bun.SQL(url, { max: 1, bigint: true, idleTimeout: 0 });
  const answer = (reply: unknown) => {
    port.postMessage(reply);
    Atomics.store(flag, 0, 1);
    Atomics.notify(flag, 0);
  };
  if (listen) {
    // a second connection for LISTEN (the statement connection stays free for the owner)
    const listener = new Bun.SQL(url, { max: 1, bigint: true, idleTimeout: 0 });
    quietListenRetries();
    const read = async () => {
      try {
        const [row] = await listener.unsafe("SELECT n FROM account_epoch WHERE id = 1");
        if (row) epoch[0] = Number((row as { n: bigint }).n);
        listenWarned = false;
      } catch {
        // the table may not exist yet (before the migrations ran): the next read sees it
      }
    };
    try {
      await listener.listen(listen, (payload) => {
        const n = Number(payload);
        if (Number.isFinite(n)) epoch[0] = Math.max(epoch[0]!, n);
      });
    } catch {
      // no LISTEN: the poll below alone keeps the epoch
    }
    if (follows) {
      const slots = follows.versions.length;
      try {
        await listener.listen(
          follows.channel,
          (payload) => {
            const user = Number(payload);
            if (Number.isInteger(user) && user >= 0) Atomics.add(follows.versions, user % slots, 1);
          },
          // (re)subscribed: notifications may have been lost meanwhile, every copy is dropped
          () => void Atomics.add(follows.generation, 0, 1),
        );
      } catch {
        // no LISTEN: a generation per poll below drops every copy (they live at most 0.5 s)
        setInterval(() => Atomics.add(follows.generation, 0, 1), 500).unref?.();
      }
    }
    await read();
    // a notification lost with a dropped connection is caught up by this poll
    setInterval(read, 500).unref?.();
  }
  const handle = async ({ sql: text, params, mode }: Statement) => {
    try {
      if (mode === "script") {
        await sql.unsafe(text);
        answer({ rows: [], count: 0 });
        return;
      }
      const result = (await sql.unsafe(text, params as never[])) as unknown as Record<string, unknown>[] & { count: number | null };
      answer(mode === "rows" ? { rows: rowsOf(result), count: result.count ?? 0 } : { rows: [], count: Number(result.count ?? 0) });
    } catch (err) {
      // the SQLSTATE (Bun's `errno` for a server error), else Bun's or the system's code
      // (ERR_POSTGRES_CONNECTION_CLOSED, ECONNRESET): never a numeric errno, which names nothing
      const e = err as { message?: string; errno?: unknown; code?: unknown };
      const code = typeof e?.errno === "string" ? e.errno : typeof e?.code === "string" ? e.code : null;
      answer({ error: { message: e?.message ?? String(err), code } });
    }
  };
  port.addEventListener("message", (m) => void handle((m as MessageEvent).data as Statement));
  port.start();
  answer({ ready: true });
};
