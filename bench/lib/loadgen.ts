/**
 * The fallback load generator, used when wrk is not installed: N concurrent keep-alive
 * connections, each a loop of fetch → read body → next, bounded by a deadline and a request
 * count. Requests in flight at the deadline are awaited (not abandoned), so its 200 count is
 * exact. It runs in its own process (runBunLoad spawns this file), never in the server's.
 *
 *   bun bench/lib/loadgen.ts --url URL --connections 32 --seconds 10 --max 2000000 [--header "K: V"]…
 *
 * Prints one JSON LoadResult line on stdout. Slower than wrk: a JS client on the same 2 cores
 * takes CPU from the server, so its absolute figures are lower, but the ratios still hold.
 */
import { DU_HEADER, type LoadOptions, type LoadResult } from "./load";
import { percentileSorted } from "./stats";

async function generate(o: LoadOptions): Promise<LoadResult> {
  const latencies = new Float64Array(Math.min(o.maxRequests, 20_000_000));
  let started = 0;
  let done = 0;
  let ok = 0;
  let non2xx = 0;
  let withDu = 0;
  let errors = 0;
  const duHeader = DU_HEADER.toLowerCase();
  const t0 = performance.now();
  const deadline = t0 + o.seconds * 1000;
  const worker = async () => {
    while (performance.now() < deadline && started < o.maxRequests && errors < 1000) {
      started++;
      const start = performance.now();
      try {
        const res = await fetch(o.url, { headers: o.headers, keepalive: true });
        await res.arrayBuffer();
        latencies[done++] = performance.now() - start;
        if (res.status === 200) ok++;
        if (res.status >= 400) non2xx++;
        if (res.headers.has(duHeader)) withDu++;
      } catch {
        errors++;
      }
    }
  };
  await Promise.all(Array.from({ length: o.connections }, worker));
  const seconds = (performance.now() - t0) / 1000;
  const sorted = latencies.subarray(0, done).sort();
  return {
    tool: "bun",
    requests: done,
    seconds,
    rps: done / seconds,
    p50ms: percentileSorted(sorted, 50),
    p90ms: percentileSorted(sorted, 90),
    p99ms: percentileSorted(sorted, 99),
    ok200: ok,
    non2xx,
    withDu,
    socketErrors: errors,
  };
}

/** Runs the fallback generator in a child process; killed if it outlives its duration by 30 s. */
export async function runBunLoad(o: LoadOptions): Promise<LoadResult> {
  const args = [process.execPath, import.meta.path, "--url", o.url, "--connections", String(o.connections)];
  args.push("--seconds", String(o.seconds), "--max", String(o.maxRequests));
  for (const [k, v] of Object.entries(o.headers)) args.push("--header", `${k}: ${v}`);
  const proc = Bun.spawn(args, { stdout: "pipe", stderr: "pipe" });
  const killer = setTimeout(() => proc.kill("SIGKILL"), (o.seconds + 30) * 1000);
  const [output, errors, code] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text(), proc.exited]);
  clearTimeout(killer);
  if (code !== 0) throw new Error(`load generator exited with ${code}: ${errors}`);
  return JSON.parse(output.trim().split("\n").pop()!) as LoadResult;
}

if (import.meta.main) {
  const argv = process.argv.slice(2);
  const o: LoadOptions = { url: "", headers: {}, connections: 32, threads: 1, seconds: 10, maxRequests: 2_000_000 };
  for (let i = 0; i < argv.length; i += 2) {
    const [flag, value] = [argv[i], argv[i + 1] ?? ""];
    if (flag === "--url") o.url = value;
    else if (flag === "--connections") o.connections = Number(value);
    else if (flag === "--seconds") o.seconds = Number(value);
    else if (flag === "--max") o.maxRequests = Number(value);
    else if (flag === "--header") {
      const colon = value.indexOf(":");
      o.headers[value.slice(0, colon).trim()] = value.slice(colon + 1).trim();
    } else throw new Error(`unknown flag ${flag}`);
  }
  if (!o.url.startsWith("http://127.0.0.1:")) throw new Error("the load generator only targets http://127.0.0.1");
  process.stdout.write(`${JSON.stringify(await generate(o))}\n`);
  process.exit(0);
}
