import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Harness, startHarness } from "./harness.js";

type InstallAnswer = {
  baseUrl: string;
  jira: { clientKey: string };
  install?: { product: string; status: number }[];
  uninstall?: { product: string; status: number }[];
};

/** The emulator's signed lifecycle callbacks against the real add-on (RS256 verified through the emulator's key server). */
describe("installing rmCloud into emulated sites", () => {
  let harness: Harness;

  beforeAll(async () => {
    harness = await startHarness({ browser: false });
  });

  afterAll(async () => {
    await harness?.stop();
  });

  const post = async (path: string, body: unknown = {}) => {
    const response = await fetch(`${harness.emulatorUrl}${path}`, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify(body),
    });
    return { status: response.status, body: (await response.json()) as InstallAnswer };
  };

  it("installs the default site's Jira and Confluence on start", () => {
    expect(harness.emulator.installResults.map((r) => r.product)).toEqual(["jira", "confluence"]);
    expect(harness.emulator.installResults.every((r) => r.status === 200 || r.status === 204)).toBe(true);
  });

  it("reinstalls a site, installs a new one and uninstalls it", async () => {
    const again = await post("/_emulator/sites/default/install");
    expect(again.body.install?.every((r) => r.status === 200 || r.status === 204)).toBe(true);

    const created = await post("/_emulator/sites", { name: "tenant-b" });
    expect(created.status).toBe(201);
    expect(created.body.baseUrl).toBe(`${harness.emulatorUrl}/sites/tenant-b`);

    const removed = await post("/_emulator/sites/tenant-b/uninstall");
    expect(removed.body.uninstall?.every((r) => r.status === 200 || r.status === 204)).toBe(true);
  });

  it("is refused by the add-on when the install is not signed", async () => {
    const response = await fetch(`${harness.addonUrl}/installed`, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({
        key: "rmcloud",
        clientKey: "jira:forged",
        sharedSecret: "x".repeat(32),
        baseUrl: "https://forged.atlassian.net",
        productType: "jira",
        eventType: "installed",
      }),
    });
    expect(response.status).toBe(401);
  });
});
