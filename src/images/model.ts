import { Type as t } from "@sinclair/typebox";

const signed = (w: number) => t.String({ description: `signed URL of the ${w}-pixel-wide rendition`, format: "uri" });

export const ImageSchema = t.Object(
  {
    id: t.Integer(),
    urls: t.Object({ w240: signed(240), w480: signed(480), w768: signed(768), w1200: signed(1200), w1920: signed(1920) }),
    large_url: t.Null({ description: "retired; always null" }),
    medium_url: t.Null({ description: "retired; always null" }),
    thumbnail_url: t.Null({ description: "retired; always null" }),
  },
  { $id: "ImageSchema" },
);
