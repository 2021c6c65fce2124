/** Shared helpers of the collectables tests: multipart requests, images, direct database reads. */
import { expect } from "bun:test";
import { checkResponse, type TestContext } from "../helpers/app";
import { loadSharp } from "../../src/platform/native";

export type Json = Record<string, any>;

export function form(fields: Record<string, string | number>, image?: { bytes: Uint8Array; type?: string; name?: string }): FormData {
  const f = new FormData();
  for (const [k, v] of Object.entries(fields)) f.set(k, String(v));
  if (image) f.set("image", new File([image.bytes], image.name ?? "work.png", { type: image.type ?? "image/png" }));
  return f;
}

/** A multipart request (POST /v1/collectables, PUT …/image) as the caller with `key`; a 2xx JSON answer is checked against its schema. */
export async function send(
  ctx: TestContext,
  path: string,
  method: string,
  body: FormData | string,
  key: string | null = ctx.keys.enterprise,
  headers: Record<string, string> = {},
): Promise<Response> {
  const h: Record<string, string> = { ...headers };
  if (key !== null) h.Authorization = `Bearer ${key}`;
  const res = await ctx.app.handle(new Request(`http://artmarket.test${path}`, { method, headers: h, body }));
  await checkResponse(ctx.app, ctx.deps, method, path, key, res);
  return res;
}

export async function create(
  ctx: TestContext,
  fields: Record<string, string | number>,
  image?: { bytes: Uint8Array; type?: string },
  key: string = ctx.keys.enterprise,
): Promise<Json> {
  const res = await send(ctx, "/v1/collectables", "POST", form(fields, image), key);
  const body = (await res.json()) as Json;
  expect({ status: res.status, body }).toMatchObject({ status: 200 });
  return body;
}

/** A small PNG of one colour with a stripe (different colours give different embeddings). */
export async function png(ctx: TestContext, width = 96, height = 64, rgb: [number, number, number] = [200, 30, 30]): Promise<Uint8Array> {
  const sharp = loadSharp(ctx.dataDir);
  const stripe = await sharp({ create: { width: Math.max(1, Math.floor(width / 3)), height, channels: 3, background: { r: 255 - rgb[0], g: 255 - rgb[1], b: 255 - rgb[2] } } })
    .png()
    .toBuffer();
  const buf = await sharp({ create: { width, height, channels: 3, background: { r: rgb[0], g: rgb[1], b: rgb[2] } } })
    .composite([{ input: stripe, left: 0, top: 0 }])
    .png()
    .toBuffer();
  return new Uint8Array(buf);
}

/** A PNG whose header claims width × height pixels (a decompression bomb for the pixel cap). */
export function pngHeaderOnly(width: number, height: number): Uint8Array {
  const chunk = (type: string, data: Uint8Array) => {
    const out = new Uint8Array(12 + data.length);
    const dv = new DataView(out.buffer);
    dv.setUint32(0, data.length);
    out.set(new TextEncoder().encode(type), 4);
    out.set(data, 8);
    dv.setUint32(8 + data.length, Bun.hash.crc32(out.subarray(4, 8 + data.length)) >>> 0);
    return out;
  };
  const ihdr = new Uint8Array(13);
  const dv = new DataView(ihdr.buffer);
  dv.setUint32(0, width);
  dv.setUint32(4, height);
  ihdr.set([8, 2, 0, 0, 0], 8);
  const parts = [
    new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk("IHDR", ihdr),
    chunk("IDAT", new Uint8Array([0x78, 0x9c, 0x03, 0x00, 0x00, 0x00, 0x00, 0x01])),
    chunk("IEND", new Uint8Array(0)),
  ];
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let o = 0;
  for (const p of parts) out.set(p, o), (o += p.length);
  return out;
}

export async function json(res: Response): Promise<Json> {
  return (await res.json()) as Json;
}

/** Rows of an account table for one collectable. */
export function rowsOf(ctx: TestContext, table: string, collectableId: number): Json[] {
  const col = table === "collectables" ? "id" : "collectable_id";
  const st = ctx.deps.account.prepare(`SELECT * FROM ${table} WHERE ${col} = ?`);
  try {
    return st.all(collectableId) as Json[];
  } finally {
    st.finalize();
  }
}

export function marketRow<T = Json>(ctx: TestContext, sql: string, ...params: (string | number)[]): T {
  const st = ctx.deps.market.prepare(sql);
  try {
    return st.get(...(params as never[])) as T;
  } finally {
    st.finalize();
  }
}

export function marketRows<T = Json>(ctx: TestContext, sql: string, ...params: (string | number)[]): T[] {
  const st = ctx.deps.market.prepare(sql);
  try {
    return st.all(...(params as never[])) as T[];
  } finally {
    st.finalize();
  }
}

/** A 422 body: every issue has the spec's five keys; returns the issues. */
export async function expect422(res: Response): Promise<Json[]> {
  const body = await json(res);
  expect({ status: res.status, body }).toMatchObject({ status: 422 });
  expect(Array.isArray(body.detail)).toBe(true);
  expect(body.detail.length).toBeGreaterThan(0);
  for (const d of body.detail) {
    expect(Object.keys(d).sort()).toEqual(["ctx", "input", "loc", "msg", "type"]);
    expect(Array.isArray(d.loc)).toBe(true);
    expect(typeof d.msg).toBe("string");
    expect(typeof d.type).toBe("string");
    expect(typeof d.ctx).toBe("object");
  }
  expect(res.headers.get("X-Service-DataUnits")).toBeNull();
  return body.detail;
}

export const du = (res: Response) => res.headers.get("X-Service-DataUnits");
