/**
 * Signed image URLs (src/serve/images/urls.ts): each URL is HMAC-SHA256 of its path and expiry,
 * and verifies; a signer keeps an image's five URLs per variant and origin for the day they carry,
 * shared between answers (frozen) and signed anew when the day turns.
 */
import { describe, expect, test } from "bun:test";
import { createHmac } from "node:crypto";
import { ImageSigner, imagePath, SIGNED_IMAGES_KEPT, WIDTHS } from "../../src/serve/images/urls";

const secret = Buffer.alloc(32, 9);
const DAY = 86_400_000;
const noon = Date.UTC(2026, 10, 29, 12);

/** The query of a URL: its exp and sig. */
const query = (url: string) => new URL(url).searchParams;

describe("signed image URLs", () => {
  test("each width's URL is HMAC-SHA256 of its path and expiry, and verifies; a changed byte does not", () => {
    const signer = new ImageSigner(secret, null);
    for (const variant of ["full", "blur"] as const) {
      const image = signer.imageObject(42, variant, "http://127.0.0.1:8080", noon)!;
      expect(Object.keys(image.urls)).toEqual(WIDTHS.map((w) => `w${w}`));
      for (const w of WIDTHS) {
        const url = image.urls[`w${w}`];
        const path = imagePath(42, w, variant);
        const { exp, sig } = Object.fromEntries(query(url)) as { exp: string; sig: string };
        expect(url).toBe(`http://127.0.0.1:8080${path}?exp=${exp}&sig=${sig}`);
        expect(Number(exp)).toBe(signer.expiry(noon));
        expect(sig).toBe(createHmac("sha256", secret).update(`${path}\n${exp}`).digest("hex"));
        expect(signer.verify(path, exp, sig, noon)).toBe(true);
        expect(signer.verify(path, exp, `${sig.slice(0, -1)}${sig.endsWith("0") ? "1" : "0"}`, noon)).toBe(false);
        expect(signer.verify(imagePath(43, w, variant), exp, sig, noon)).toBe(false);
      }
    }
  });

  test("kept per variant, origin and image for the day: the same frozen URLs; another day signs anew", () => {
    const signer = new ImageSigner(secret, null);
    const a = signer.imageObject(7, "full", "http://a.test", noon)!;
    expect(Object.isFrozen(a.urls)).toBe(true);
    expect(signer.imageObject(7, "full", "http://a.test", noon + 3600_000)!.urls).toBe(a.urls);
    expect(signer.imageObject(7, "blur", "http://a.test", noon)!.urls.w240).toContain("/images/7/w240-blur.jpg?");
    expect(signer.imageObject(7, "full", "http://b.test", noon)!.urls.w240).toStartWith("http://b.test/images/7/w240.jpg?");
    expect(signer.imageObject(8, "full", "http://a.test", noon)!.urls.w240).toStartWith("http://a.test/images/8/w240.jpg?");
    const tomorrow = signer.imageObject(7, "full", "http://a.test", noon + DAY)!;
    expect(Number(query(tomorrow.urls.w480).get("exp"))).toBe(Number(query(a.urls.w480).get("exp")) + 86_400);
    expect(tomorrow.urls.w480).not.toBe(a.urls.w480);
    expect(signer.imageObject(null, "full", "http://a.test", noon)).toBeNull();
  });

  test("--public-url is the URLs' origin whatever the request's; the kept sets stay bounded", () => {
    const signer = new ImageSigner(secret, "https://api.example.com");
    expect(signer.imageObject(1, "full", "http://127.0.0.1:1", noon)!.urls.w1920).toStartWith("https://api.example.com/images/1/w1920.jpg?");
    const first = signer.imageObject(1, "full", "http://127.0.0.1:1", noon)!.urls;
    for (let id = 2; id <= SIGNED_IMAGES_KEPT + 1; id++) signer.imageObject(id, "full", "http://127.0.0.1:1", noon);
    // the first image's set was the least recently used: signed again, equal but not the same object
    const again = signer.imageObject(1, "full", "http://127.0.0.1:1", noon)!.urls;
    expect(again).not.toBe(first);
    expect(again).toEqual(first);
  });
});
