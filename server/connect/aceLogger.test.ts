import { inspect } from "node:util";
import { describe, expect, it } from "vitest";
import { redactAceMessage } from "./aceLogger.js";

describe("ACE's log lines", () => {
  const payload = {
    clientKey: "jira:abc",
    sharedSecret: "the-shared-secret",
    publicKey: "MIIB-public",
    baseUrl: "https://site.atlassian.net",
  };

  it("never carry a shared secret, whether ACE passes the payload as an object or as text", () => {
    const asObject = redactAceMessage(["Saved tenant details for jira:abc to database\n", payload]);
    const asText = redactAceMessage([`Saved tenant details for jira:abc to database\n${inspect(payload)}`]);
    for (const line of [asObject, asText]) {
      expect(line).toContain("jira:abc");
      expect(line).toContain("https://site.atlassian.net");
      expect(line).not.toContain("the-shared-secret");
      expect(line).not.toContain("MIIB-public");
    }
  });

  it("never carry a JWT", () => {
    const jwt = "eyJhbGciOiJIUzI1NiJ9.eyJpc3MiOiJqaXJhIn0.c2lnbmF0dXJl";
    expect(redactAceMessage([`Auth failure for token ${jwt}`])).toBe("Auth failure for token [redacted jwt]");
  });
});
