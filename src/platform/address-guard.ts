/**
 * Which network addresses an `image_url` may be fetched from (src/serve/images/fetch.ts): pure
 * functions, no DNS, no sockets.
 *
 * An address is *forbidden* when it is not a public internet address:
 * - IPv4: 0.0.0.0/8 (unspecified, "this network"), 10/8, 100.64/10 (CGNAT), 127/8 (loopback),
 *   169.254/16 (link-local, cloud metadata 169.254.169.254), 172.16/12, 192.0.0/24 (IETF
 *   protocol assignments), 192.0.2/24, 198.51.100/24, 203.0.113/24 (documentation),
 *   192.88.99/24 (6to4 relay anycast), 192.168/16, 198.18/15 (benchmarking), 224/4 (multicast),
 *   240/4 (reserved, 255.255.255.255 broadcast included).
 * - IPv6: only global unicast (2000::/3) is public, so ::, ::1, ::/96 (IPv4-compatible), 100::/64,
 *   fc00::/7 (unique-local), fe80::/10 (link-local), fec0::/10, ff00::/8 (multicast) and every
 *   other unassigned range are forbidden; inside 2000::/3, 2001::/23 (IETF protocol assignments:
 *   Teredo, benchmarking, ORCHID…), 2001:db8::/32 and 3fff::/20 (documentation) are too.
 * - Forms that carry an IPv4 address are judged by that address: IPv4-mapped ::ffff:a.b.c.d,
 *   NAT64 64:ff9b::a.b.c.d (the well-known prefix; the local-use 64:ff9b:1::/48 is forbidden
 *   outright) and 6to4 2002:AABB:CCDD::/48.
 * - Anything that does not parse as an IP address is forbidden (fail closed).
 *
 * The operator's allow list (`--fetch-allow`, CIDR ranges) lifts the refusal for the addresses it
 * covers; an IPv4-mapped IPv6 address is covered by an IPv4 range that covers its IPv4 address.
 */

interface Ip {
  /** 4 or 16 bytes, network order. */
  readonly bytes: Uint8Array;
}

export interface Cidr {
  readonly bytes: Uint8Array;
  readonly prefix: number;
}

/** Strict dotted-quad IPv4 (four decimal parts 0..255, no leading zeros beyond "0"). */
function parseIPv4(text: string): Uint8Array | null {
  const parts = text.split(".");
  if (parts.length !== 4) return null;
  const out = new Uint8Array(4);
  for (let i = 0; i < 4; i++) {
    const p = parts[i]!;
    if (!/^(0|[1-9]\d{0,2})$/.test(p)) return null;
    const n = Number(p);
    if (n > 255) return null;
    out[i] = n;
  }
  return out;
}

/** IPv6 text (with `::`, an embedded dotted quad, a `%zone` or surrounding brackets). */
function parseIPv6(input: string): Uint8Array | null {
  let text = input;
  if (text.startsWith("[") && text.endsWith("]")) text = text.slice(1, -1);
  const zone = text.indexOf("%");
  if (zone >= 0) text = text.slice(0, zone);
  if (!/^[0-9a-fA-F:.]+$/.test(text)) return null;
  const words: number[] = [];
  const halves = text.split("::");
  if (halves.length > 2) return null;
  const parseGroups = (part: string, last: boolean): number[] | null => {
    if (part === "") return [];
    const groups = part.split(":");
    const out: number[] = [];
    for (let i = 0; i < groups.length; i++) {
      const g = groups[i]!;
      if (last && i === groups.length - 1 && g.includes(".")) {
        const v4 = parseIPv4(g);
        if (!v4) return null;
        out.push((v4[0]! << 8) | v4[1]!, (v4[2]! << 8) | v4[3]!);
      } else {
        if (!/^[0-9a-fA-F]{1,4}$/.test(g)) return null;
        out.push(parseInt(g, 16));
      }
    }
    return out;
  };
  if (halves.length === 2) {
    const head = parseGroups(halves[0]!, false);
    const tail = parseGroups(halves[1]!, true);
    if (!head || !tail || head.length + tail.length > 7) return null;
    words.push(...head, ...new Array<number>(8 - head.length - tail.length).fill(0), ...tail);
  } else {
    const all = parseGroups(text, true);
    if (!all || all.length !== 8) return null;
    words.push(...all);
  }
  const out = new Uint8Array(16);
  words.forEach((w, i) => {
    out[2 * i] = w >> 8;
    out[2 * i + 1] = w & 0xff;
  });
  return out;
}

/** The bytes of an IPv4 or IPv6 address (IPv6 possibly in brackets), or null when it is neither. */
export function parseIp(text: string): Uint8Array | null {
  const t = text.trim();
  return parseIPv4(t) ?? (t.includes(":") ? parseIPv6(t) : null);
}

/** `a.b.c.d/n` (n 0..32) or `<ipv6>/n` (n 0..128), or null. Host bits may be set; they are ignored. */
export function parseCidr(text: string): Cidr | null {
  const slash = text.lastIndexOf("/");
  if (slash < 0) return null;
  const bytes = parseIp(text.slice(0, slash));
  const bits = text.slice(slash + 1).trim();
  if (!bytes || !/^\d{1,3}$/.test(bits)) return null;
  const prefix = Number(bits);
  if (prefix > bytes.length * 8) return null;
  return { bytes, prefix };
}

function inRange(ip: Uint8Array, range: Cidr): boolean {
  if (ip.length !== range.bytes.length) return false;
  let bits = range.prefix;
  for (let i = 0; bits > 0; i++, bits -= 8) {
    const mask = bits >= 8 ? 0xff : (0xff << (8 - bits)) & 0xff;
    if ((ip[i]! & mask) !== (range.bytes[i]! & mask)) return false;
  }
  return true;
}

const ranges = (list: string[]): Cidr[] => list.map((c) => parseCidr(c)!);

const FORBIDDEN_V4 = ranges([
  "0.0.0.0/8",
  "10.0.0.0/8",
  "100.64.0.0/10",
  "127.0.0.0/8",
  "169.254.0.0/16",
  "172.16.0.0/12",
  "192.0.0.0/24",
  "192.0.2.0/24",
  "192.88.99.0/24",
  "192.168.0.0/16",
  "198.18.0.0/15",
  "198.51.100.0/24",
  "203.0.113.0/24",
  "224.0.0.0/4",
  "240.0.0.0/4",
]);

const GLOBAL_UNICAST_V6 = parseCidr("2000::/3")!;
const FORBIDDEN_V6 = ranges(["2001::/23", "2001:db8::/32", "3fff::/20"]);
const MAPPED = parseCidr("::ffff:0:0/96")!;
const NAT64 = parseCidr("64:ff9b::/96")!;
const SIX_TO_FOUR = parseCidr("2002::/16")!;

/** The IPv4 address inside an IPv4-mapped, NAT64 (64:ff9b::/96) or 6to4 (2002::/16) IPv6 address. */
function embeddedV4(ip: Uint8Array): Uint8Array | null {
  if (ip.length !== 16) return null;
  if (inRange(ip, MAPPED) || inRange(ip, NAT64)) return ip.slice(12, 16);
  if (inRange(ip, SIX_TO_FOUR)) return ip.slice(2, 6);
  return null;
}

function forbiddenBytes(ip: Uint8Array): boolean {
  if (ip.length === 4) return FORBIDDEN_V4.some((r) => inRange(ip, r));
  const v4 = embeddedV4(ip);
  if (v4) return forbiddenBytes(v4);
  if (!inRange(ip, GLOBAL_UNICAST_V6)) return true;
  return FORBIDDEN_V6.some((r) => inRange(ip, r));
}

/**
 * True when `ip` is not a public internet address (loopback, private, CGNAT, link-local,
 * unique-local, unspecified, multicast, reserved, documentation…, or an IPv6 form that embeds
 * such an IPv4 address), and for text that is not an IP address at all.
 */
export function isForbiddenAddress(ip: string): boolean {
  const bytes = parseIp(ip);
  return bytes === null || forbiddenBytes(bytes);
}

/**
 * True when one of `cidrs` covers `ip` (an IPv4-mapped IPv6 address is also matched as its IPv4
 * address). Entries that are not CIDR ranges are ignored.
 */
export function allowedBy(ip: string, cidrs: readonly string[]): boolean {
  const bytes = parseIp(ip);
  if (!bytes || cidrs.length === 0) return false;
  const mapped = bytes.length === 16 && inRange(bytes, MAPPED) ? bytes.slice(12, 16) : null;
  for (const text of cidrs) {
    const range = parseCidr(text);
    if (!range) continue;
    if (inRange(bytes, range) || (mapped && inRange(mapped, range))) return true;
  }
  return false;
}

/** May an image be fetched from `ip`: a public address, or one the allow list covers. */
export function isFetchableAddress(ip: string, allow: readonly string[] = []): boolean {
  return !isForbiddenAddress(ip) || allowedBy(ip, allow);
}

/** A URL host that is an IP literal, as the address itself (an IPv6 one without its brackets); null for a name. */
export function literalAddress(hostname: string): string | null {
  return parseIp(hostname) ? hostname.replace(/^\[|\]$/g, "") : null;
}

/**
 * Where to connect for `url`, whose host resolved to `addresses` (every one of them checked): over
 * http the first address itself, the name kept in the Host header, so that a DNS answer that
 * changes after the check (DNS rebinding) cannot redirect the request; over https the URL as it
 * is (TLS needs the name for SNI and the certificate).
 */
export function connectionTarget(url: URL, addresses: readonly string[]): { href: string; host?: string } {
  if (url.protocol === "https:") return { href: url.href };
  const ip = addresses[0]!;
  const direct = new URL(url.href);
  direct.hostname = ip.includes(":") ? `[${ip}]` : ip;
  return { href: direct.href, host: url.host };
}
