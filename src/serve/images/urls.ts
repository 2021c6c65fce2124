/**
 * Signed image URLs. An image is served by the same process under
 * /images/<id>/w<width>[-blur].jpg?exp=<unix seconds>&sig=<hex>, where sig is HMAC-SHA256 over the
 * path (which names the image, the width and the variant) and exp, with a secret kept in the data
 * directory. Callers without a key get the blurred variant, and the blur is part of what is signed.
 * exp is the end of the day three days ahead, so a URL stays the same all day (cacheable) and
 * lives between three and four days.
 */
import { timingSafeEqual } from "node:crypto";
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { RecentMap } from "../../platform/recent";

export const WIDTHS = [240, 480, 768, 1200, 1920] as const;
export type Width = (typeof WIDTHS)[number];
export type Variant = "full" | "blur";

export interface ImageObject {
  id: number;
  urls: Record<"w240" | "w480" | "w768" | "w1200" | "w1920", string>;
  large_url: null;
  medium_url: null;
  thumbnail_url: null;
}

/** The signing secret: 32 random bytes in <data>/secret, created on first start with mode 0600. */
export function loadSecret(dataDir: string): Buffer {
  const path = join(dataDir, "secret");
  if (!existsSync(path)) {
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(path, Buffer.from(crypto.getRandomValues(new Uint8Array(32))).toString("hex"), { mode: 0o600 });
    chmodSync(path, 0o600);
  }
  return Buffer.from(readFileSync(path, "utf8").trim(), "hex");
}

/** Collectable images are named by a key ("c" + 24 hex digits) instead of a market image id. */
export const COLLECTABLE_IMAGE_KEY = /^c[0-9a-f]{24}$/;

export function imagePath(imageId: number | string, width: number, variant: Variant): string {
  return `/images/${imageId}/w${width}${variant === "blur" ? "-blur" : ""}.jpg`;
}

/**
 * Images whose five signed URLs a signer keeps (least recently used first out), about 0.7 KB each:
 * a list's page signs five URLs per row, a sixth of an artworks page's CPU, and the same images
 * come back on every request for that page.
 */
export const SIGNED_IMAGES_KEPT = 10_000;

export class ImageSigner {
  /** The signed URLs of an image by variant, origin and id, with the expiry they carry. */
  readonly #signed = new RecentMap<string, { exp: number; urls: Readonly<ImageObject["urls"]> }>(SIGNED_IMAGES_KEPT);

  constructor(
    private readonly secret: Buffer,
    /** Host written into URLs (--public-url); null: the request's own origin. */
    private readonly publicUrl: string | null,
    private readonly lifetimeDays = 3,
  ) {}

  /** HMAC-SHA256 of `text` with the secret: Bun's own, half the time of node:crypto's createHmac here (0.8 against 1.5 µs a URL). */
  private hmac(text: string): Bun.CryptoHasher {
    return new Bun.CryptoHasher("sha256", this.secret).update(text);
  }

  private sign(path: string, exp: number): string {
    return this.hmac(`${path}\n${exp}`).digest("hex");
  }

  /** A key for another use of the secret (HMAC-SHA256 of `purpose`; no image signature signs such a text): the list cursors' tags. */
  derivedKey(purpose: string): Buffer {
    return Buffer.from(this.hmac(`key\n${purpose}`).digest());
  }

  /** Expiry of URLs made at `now`: the end of the UTC day `lifetimeDays` ahead. */
  expiry(now = Date.now()): number {
    const day = Math.floor(now / 86_400_000) + this.lifetimeDays + 1;
    return day * 86_400;
  }

  url(imageId: number | string, width: number, variant: Variant, origin: string, now = Date.now()): string {
    const path = imagePath(imageId, width, variant);
    const exp = this.expiry(now);
    return `${this.publicUrl ?? origin}${path}?exp=${exp}&sig=${this.sign(path, exp)}`;
  }

  /**
   * The image object of the spec: five signed widths, the three retired fields null. The URLs of
   * an image are signed once a day per variant and origin (SIGNED_IMAGES_KEPT), and shared: frozen.
   */
  imageObject(imageId: number | null, variant: Variant, origin: string, now = Date.now()): ImageObject | null {
    if (imageId === null) return null;
    const exp = this.expiry(now);
    const key = `${variant} ${origin} ${imageId}`;
    let kept = this.#signed.get(key);
    if (kept?.exp !== exp) {
      const urls = {} as ImageObject["urls"];
      for (const w of WIDTHS) urls[`w${w}`] = this.url(imageId, w, variant, origin, now);
      kept = { exp, urls: Object.freeze(urls) };
      this.#signed.set(key, kept);
    }
    return { id: imageId, urls: kept.urls, large_url: null, medium_url: null, thumbnail_url: null };
  }

  /** Whether a request for `path` with `exp` and `sig` is genuine and not expired. */
  verify(path: string, exp: string | null, sig: string | null, now = Date.now()): boolean {
    if (!exp || !sig || !/^\d{1,12}$/.test(exp) || !/^[0-9a-f]{64}$/.test(sig)) return false;
    if (Number(exp) * 1000 < now) return false;
    const expected = Buffer.from(this.sign(path, Number(exp)), "hex");
    return timingSafeEqual(expected, Buffer.from(sig, "hex"));
  }
}
