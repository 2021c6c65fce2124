/**
 * The search transform of the search-by-image quality check (docs/vectors.md): half size, JPEG
 * q60, 5 % cropped on each side, brightness +10 %, as PNG. Used by the tests and bench/vector.
 */
import type { Sharp } from "../../src/platform/native";

export async function searchTransform(sharp: Sharp, image: Buffer): Promise<Buffer> {
  const meta = await sharp(image).metadata();
  const half = await sharp(image)
    .resize(Math.round(meta.width! / 2))
    .jpeg({ quality: 60 })
    .toBuffer();
  const m = await sharp(half).metadata();
  const dx = Math.round(m.width! * 0.05),
    dy = Math.round(m.height! * 0.05);
  return sharp(half)
    .extract({ left: dx, top: dy, width: m.width! - 2 * dx, height: m.height! - 2 * dy })
    .modulate({ brightness: 1.1 })
    .png()
    .toBuffer();
}
