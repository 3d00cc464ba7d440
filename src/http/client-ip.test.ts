import { describe, expect, test } from "bun:test";
import { clientAddress, throttleAddress } from "./client-ip";

/** A request carrying these X-Forwarded-For headers (several are joined the way a proxy chain would send them). */
function forwarded(...values: string[]): Request {
  const headers = new Headers();
  for (const value of values) headers.append("x-forwarded-for", value);
  return new Request("http://mesa.test/login", { headers });
}

const PROXY = "10.0.0.5";

describe("clientAddress", () => {
  test("without trusted proxies the connecting address is the client's, whatever the header says", () => {
    expect(clientAddress("203.0.113.9", forwarded("198.51.100.1"), [])).toBe("203.0.113.9");
    expect(clientAddress("203.0.113.9", forwarded(), [])).toBe("203.0.113.9");
  });

  test("a spoofed header from a peer that is not a trusted proxy is ignored", () => {
    expect(clientAddress("203.0.113.9", forwarded("198.51.100.1"), [PROXY])).toBe("203.0.113.9");
    expect(clientAddress("203.0.113.9", forwarded("10.0.0.5, 198.51.100.1"), ["10.0.0.0/8"])).toBe("203.0.113.9");
  });

  test("from a trusted proxy, the rightmost entry is the client", () => {
    expect(clientAddress(PROXY, forwarded("198.51.100.1"), [PROXY])).toBe("198.51.100.1");
  });

  test("entries the client wrote itself, left of the one the proxy added, are not believed", () => {
    expect(clientAddress(PROXY, forwarded("1.1.1.1, 2.2.2.2, 198.51.100.1"), [PROXY])).toBe("198.51.100.1");
    // Two headers count as one list, in order.
    expect(clientAddress(PROXY, forwarded("1.1.1.1", "198.51.100.1"), [PROXY])).toBe("198.51.100.1");
  });

  test("a chain of trusted proxies is walked from the right past every trusted hop", () => {
    const trusted = ["10.0.0.0/8", "192.168.1.1"];
    expect(clientAddress("10.0.0.5", forwarded("1.1.1.1, 198.51.100.1, 192.168.1.1, 10.2.3.4"), trusted)).toBe(
      "198.51.100.1",
    );
    // The client wrote a trusted-looking entry of its own: the walk still stops at the first address not trusted.
    expect(clientAddress("10.0.0.5", forwarded("10.9.9.9, 198.51.100.1, 10.2.3.4"), trusted)).toBe("198.51.100.1");
    // Every hop trusted: the leftmost is the client (a machine inside the trusted range).
    expect(clientAddress("10.0.0.5", forwarded("10.7.7.7, 10.2.3.4"), trusted)).toBe("10.7.7.7");
  });

  test("CIDR ranges, IPv4 and IPv6", () => {
    expect(clientAddress("172.16.4.20", forwarded("198.51.100.1"), ["172.16.0.0/12"])).toBe("198.51.100.1");
    expect(clientAddress("172.32.0.1", forwarded("198.51.100.1"), ["172.16.0.0/12"])).toBe("172.32.0.1");
    expect(clientAddress("2001:db8:1::7", forwarded("2001:db8:ffff::1"), ["2001:db8:1::/48"])).toBe("2001:db8:ffff::1");
    expect(clientAddress("2001:db8:2::7", forwarded("198.51.100.1"), ["2001:db8:1::/48"])).toBe("2001:db8:2::7");
    expect(clientAddress("::1", forwarded("198.51.100.1"), ["::1"])).toBe("198.51.100.1");
    expect(clientAddress("10.1.2.3", forwarded("198.51.100.1"), ["0.0.0.0/0"])).toBe("198.51.100.1");
  });

  test("an IPv4-mapped IPv6 socket address matches IPv4 entries, and the answer is dotted IPv4", () => {
    expect(clientAddress("::ffff:10.0.0.1", forwarded("198.51.100.1"), ["10.0.0.0/8"])).toBe("198.51.100.1");
    expect(clientAddress("::ffff:10.0.0.1", forwarded("::ffff:198.51.100.1"), ["10.0.0.1"])).toBe("198.51.100.1");
    expect(clientAddress("::ffff:203.0.113.9", forwarded("198.51.100.1"), ["10.0.0.0/8"])).toBe("203.0.113.9");
    expect(clientAddress("::FFFF:0A00:0001", forwarded("198.51.100.1"), ["10.0.0.1"])).toBe("198.51.100.1");
  });

  test("garbage in the header stops the walk at the last address vouched for", () => {
    for (const junk of [
      "",
      "  ",
      "unknown",
      "not-an-ip",
      "1.2.3.4:5678",
      "[2001:db8::1]",
      "256.1.1.1",
      "1.2.3",
      "1::2::3",
      "12345::1",
      "::1::",
      "1.2.3.4/8",
    ]) {
      expect({ junk, address: clientAddress(PROXY, forwarded(junk), [PROXY]) }).toEqual({ junk, address: PROXY });
    }
    expect(clientAddress(PROXY, forwarded("198.51.100.1, garbage"), [PROXY])).toBe(PROXY);
    // Garbage left of the client's real address is never reached.
    expect(clientAddress(PROXY, forwarded("garbage, 198.51.100.1"), [PROXY])).toBe("198.51.100.1");
    expect(clientAddress(PROXY, forwarded(",,,"), [PROXY])).toBe(PROXY);
  });

  test("malformed trusted entries trust nobody", () => {
    expect(clientAddress(PROXY, forwarded("198.51.100.1"), ["10.0.0.5/33", "nonsense", "10.0.0.5/8/1"])).toBe(PROXY);
  });

  test("an unknown connecting address gives null, header or not", () => {
    expect(clientAddress(null, forwarded("198.51.100.1"), [PROXY])).toBeNull();
  });

  test("IPv6 answers are written the usual short way", () => {
    expect(clientAddress("2001:0DB8:0000:0000:0000:0000:0000:0001", forwarded(), [])).toBe("2001:db8::1");
    expect(clientAddress("2001:db8:0:0:1:0:0:1", forwarded(), [])).toBe("2001:db8::1:0:0:1");
    expect(clientAddress("fe80::1%eth0", forwarded(), [])).toBe("fe80::1");
    expect(clientAddress("::", forwarded(), [])).toBe("::");
  });
});

describe("throttleAddress", () => {
  test("IPv4 counts by the whole address, IPv6 by its /64", () => {
    expect(throttleAddress("198.51.100.1")).toBe("198.51.100.1");
    expect(throttleAddress("::ffff:198.51.100.1")).toBe("198.51.100.1");
    expect(throttleAddress("2001:db8:1:2:aaaa:bbbb:cccc:dddd")).toBe("2001:db8:1:2::/64");
    expect(throttleAddress("2001:db8:1:2::9")).toBe(throttleAddress("2001:db8:1:2:ffff::1"));
    expect(throttleAddress(null)).toBeNull();
  });
});
