/**
 * The address classification behind image_url fetching (src/platform/address-guard.ts): IPv4 and
 * IPv6 special ranges and their boundaries, IPv4-mapped, NAT64 and 6to4 forms judged by the IPv4
 * address they carry, text that is no address, CIDR parsing and the operator's allow list. Pure
 * functions: nothing here touches the network.
 */
import { describe, expect, test } from "bun:test";
import { isCidr } from "../../src/platform/config";
import { allowedBy, isFetchableAddress, isForbiddenAddress, parseCidr, parseIp } from "../../src/platform/address-guard";

const verdicts = (ips: string[]) => Object.fromEntries(ips.map((ip) => [ip, isForbiddenAddress(ip)]));
const all = (ips: string[], value: boolean) => Object.fromEntries(ips.map((ip) => [ip, value]));

describe("isForbiddenAddress, IPv4", () => {
  test("loopback, private, CGNAT, link-local (cloud metadata), unspecified, multicast, reserved, broadcast, documentation", () => {
    const forbidden = [
      "127.0.0.1",
      "127.255.255.254",
      "10.0.0.0",
      "10.255.255.255",
      "172.16.0.0",
      "172.31.255.255",
      "192.168.0.1",
      "192.168.255.255",
      "100.64.0.0",
      "100.127.255.255",
      "169.254.169.254",
      "169.254.0.1",
      "0.0.0.0",
      "0.1.2.3",
      "224.0.0.1",
      "239.255.255.250",
      "240.0.0.1",
      "255.255.255.255",
      "192.0.0.8",
      "192.0.2.1",
      "198.51.100.7",
      "203.0.113.9",
      "198.18.0.1",
      "198.19.255.255",
      "192.88.99.1",
    ];
    expect(verdicts(forbidden)).toEqual(all(forbidden, true));
  });

  test("public addresses, the boundaries of the private ranges included", () => {
    const public_ = [
      "8.8.8.8",
      "1.1.1.1",
      "93.184.216.34",
      "172.15.255.255",
      "172.32.0.0",
      "100.63.255.255",
      "100.128.0.0",
      "9.255.255.255",
      "11.0.0.0",
      "126.255.255.255",
      "128.0.0.0",
      "169.253.255.255",
      "169.255.0.0",
      "192.167.255.255",
      "192.169.0.0",
      "198.17.255.255",
      "198.20.0.0",
      "223.255.255.255",
      "1.0.0.0",
    ];
    expect(verdicts(public_)).toEqual(all(public_, false));
  });
});

describe("isForbiddenAddress, IPv6", () => {
  test("loopback, unspecified, link-local, unique-local, site-local, multicast, documentation, Teredo, discard, IPv4-compatible", () => {
    const forbidden = [
      "::1",
      "::",
      "0:0:0:0:0:0:0:1",
      "[::1]",
      "fe80::1",
      "fe80::1%eth0",
      "febf:ffff::1",
      "fc00::1",
      "fd12:3456:789a::1",
      "fdff:ffff:ffff:ffff:ffff:ffff:ffff:ffff",
      "fec0::1",
      "ff02::1",
      "ff05::1:3",
      "2001:db8::1",
      "2001::1",
      "2001:0:4136:e378:8000:63bf:3fff:fdd2",
      "100::1",
      "::7f00:1",
      "::10.0.0.1",
      "3fff::1",
      "64:ff9b:1::a00:1",
    ];
    expect(verdicts(forbidden)).toEqual(all(forbidden, true));
  });

  test("global unicast is public", () => {
    const public_ = ["2606:4700:4700::1111", "2a00:1450:4001:80b::200e", "2001:4860:4860::8888", "2400:cb00::1", "2001:200::1"];
    expect(verdicts(public_)).toEqual(all(public_, false));
  });

  test("IPv4-mapped, NAT64 and 6to4 forms are judged by the IPv4 address they carry", () => {
    const forbidden = [
      "::ffff:127.0.0.1",
      "::ffff:7f00:1",
      "[::ffff:7f00:1]",
      "::ffff:10.1.2.3",
      "::ffff:169.254.169.254",
      "::ffff:a9fe:a9fe",
      "::ffff:0.0.0.0",
      "0:0:0:0:0:ffff:c0a8:0101",
      "64:ff9b::127.0.0.1",
      "64:ff9b::a00:1",
      "64:ff9b::169.254.169.254",
      "2002:7f00:1::",
      "2002:a9fe:a9fe::1",
      "2002:c0a8:0101:1::1",
    ];
    expect(verdicts(forbidden)).toEqual(all(forbidden, true));
    const public_ = ["::ffff:8.8.8.8", "::ffff:808:808", "::ffff:172.15.255.255", "64:ff9b::8.8.8.8", "2002:808:808::1"];
    expect(verdicts(public_)).toEqual(all(public_, false));
  });

  test("text that is no IP address is forbidden (fail closed)", () => {
    const junk = ["", "localhost", "example.com", "127.1", "0x7f.0.0.1", "2130706433", "127.000.000.001", "1.2.3.256", "1.2.3", "::1::2", "12345::1", "1:2:3:4:5:6:7:8:9", "[::1"];
    expect(verdicts(junk)).toEqual(all(junk, true));
  });
});

describe("parseIp and parseCidr", () => {
  test("bytes of IPv4 and IPv6 text", () => {
    expect([...parseIp("192.168.1.2")!]).toEqual([192, 168, 1, 2]);
    expect([...parseIp("::1")!]).toEqual([...new Array(15).fill(0), 1]);
    expect([...parseIp("::ffff:1.2.3.4")!]).toEqual([0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff, 1, 2, 3, 4]);
    expect([...parseIp("fe80::")!]).toEqual([0xfe, 0x80, ...new Array(14).fill(0)]);
    expect(parseIp("1:2:3:4:5:6:7::")).not.toBeNull();
    expect(parseIp("1:2:3:4:5:6:7:8::")).toBeNull();
    expect(parseIp("::ffff:1.2.3.4:5")).toBeNull();
  });

  test("CIDR ranges: prefix bounds, IPv4 and IPv6, garbage", () => {
    expect(parseCidr("10.0.0.0/8")).toEqual({ bytes: new Uint8Array([10, 0, 0, 0]), prefix: 8 });
    expect(parseCidr("0.0.0.0/0")?.prefix).toBe(0);
    expect(parseCidr("1.2.3.4/32")?.prefix).toBe(32);
    expect(parseCidr("fd00::/8")?.prefix).toBe(8);
    expect(parseCidr("::1/128")?.prefix).toBe(128);
    for (const bad of ["10.0.0.0", "10.0.0.0/33", "::/129", "10.0.0.0/-1", "10.0.0.0/x", "host/8", "/8", "10.0.0/8"])
      expect({ bad, got: parseCidr(bad) }).toEqual({ bad, got: null });
  });

  test("parseCidr accepts what --fetch-allow accepts (isCidr in src/platform/config.ts)", () => {
    const texts = ["127.0.0.0/8", "10.0.0.1/8", "0.0.0.0/0", "fd00::/8", "::1/128", "::ffff:127.0.0.1/104", "10.0.0.0/33", "::/129", "10.0.0.0", "10.0.0/8", "x/8", "1.2.3.4/08"];
    expect(Object.fromEntries(texts.map((t) => [t, parseCidr(t) !== null]))).toEqual(Object.fromEntries(texts.map((t) => [t, isCidr(t)])));
  });
});

describe("allowedBy and isFetchableAddress", () => {
  test("the allow list covers what its ranges cover, boundaries included", () => {
    expect(allowedBy("127.0.0.1", ["127.0.0.0/8"])).toBe(true);
    expect(allowedBy("127.255.255.255", ["127.0.0.0/8"])).toBe(true);
    expect(allowedBy("128.0.0.0", ["127.0.0.0/8"])).toBe(false);
    expect(allowedBy("127.0.0.1", ["127.0.0.1/32"])).toBe(true);
    expect(allowedBy("127.0.0.2", ["127.0.0.1/32"])).toBe(false);
    expect(allowedBy("10.1.2.3", ["192.168.0.0/16", "10.1.0.0/16"])).toBe(true);
    expect(allowedBy("10.2.0.0", ["10.1.0.0/16"])).toBe(false);
    expect(allowedBy("172.20.0.1", ["172.16.0.0/13"])).toBe(true);
    expect(allowedBy("172.24.0.1", ["172.16.0.0/13"])).toBe(false);
    expect(allowedBy("10.9.9.9", ["0.0.0.0/0"])).toBe(true);
    expect(allowedBy("10.0.0.1", [])).toBe(false);
    expect(allowedBy("10.0.0.1", ["not a range", "10.0.0.0/8"])).toBe(true);
    expect(allowedBy("10.0.0.1", ["not a range"])).toBe(false);
  });

  test("IPv6 ranges, and IPv4-mapped addresses matched by IPv4 ranges; families do not mix otherwise", () => {
    expect(allowedBy("fd12::1", ["fd00::/8"])).toBe(true);
    expect(allowedBy("fc12::1", ["fd00::/8"])).toBe(false);
    expect(allowedBy("::1", ["::1/128"])).toBe(true);
    expect(allowedBy("fe80::1%eth0", ["fe80::/10"])).toBe(true);
    expect(allowedBy("::ffff:127.0.0.1", ["127.0.0.0/8"])).toBe(true);
    expect(allowedBy("::ffff:7f00:1", ["::ffff:0:0/96"])).toBe(true);
    expect(allowedBy("::1", ["127.0.0.0/8"])).toBe(false);
    expect(allowedBy("127.0.0.1", ["::/0"])).toBe(false);
    expect(allowedBy("64:ff9b::127.0.0.1", ["127.0.0.0/8"])).toBe(false);
  });

  test("fetchable: public, or forbidden but allowed", () => {
    expect(isFetchableAddress("8.8.8.8")).toBe(true);
    expect(isFetchableAddress("127.0.0.1")).toBe(false);
    expect(isFetchableAddress("127.0.0.1", ["127.0.0.0/8"])).toBe(true);
    expect(isFetchableAddress("169.254.169.254", ["10.0.0.0/8"])).toBe(false);
    expect(isFetchableAddress("::1", ["127.0.0.0/8"])).toBe(false);
    expect(isFetchableAddress("::1", ["::1/128"])).toBe(true);
    expect(isFetchableAddress("not an ip", ["0.0.0.0/0"])).toBe(false);
  });
});
