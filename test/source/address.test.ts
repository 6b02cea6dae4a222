// Which addresses an agent's URL may not reach: loopback, private, link-local, CGNAT, unspecified,
// multicast and reserved, in IPv4, IPv6 and IPv4-in-IPv6 forms; public addresses pass.
import { describe, expect, it } from "vitest";
import { isPrivateAddress } from "../../src/source/address.js";

describe("isPrivateAddress", () => {
  it("refuses every non-public form, IPv4 written inside IPv6 included", () => {
    for (const address of [
      "127.0.0.1",
      "127.255.0.9",
      "10.1.2.3",
      "172.16.0.1",
      "172.31.255.255",
      "192.168.1.1",
      "169.254.169.254",
      "100.64.0.1",
      "0.0.0.0",
      "224.0.0.1",
      "255.255.255.255",
      "::",
      "::1",
      "[::1]",
      "fe80::1",
      "fd00::1",
      "ff02::1",
      "::ffff:127.0.0.1",
      "::ffff:7f00:1",
      "::ffff:a9fe:a9fe",
      "64:ff9b::10.0.0.1",
      "not an address",
    ])
      expect(isPrivateAddress(address), address).toBe(true);
  });

  it("lets public addresses through", () => {
    for (const address of ["93.184.216.34", "8.8.8.8", "172.32.0.1", "2606:4700::1111", "::ffff:8.8.8.8"])
      expect(isPrivateAddress(address), address).toBe(false);
  });
});
