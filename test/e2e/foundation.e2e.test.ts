import { createQueryStringHash, decodeSymmetric, fromMethodAndUrl, SymmetricAlgorithm } from "atlassian-jwt";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { addonFrame, type Harness, startHarness } from "./harness.js";

const EMPTY_STATE = 'Create your first requirement by clicking the "New requirement" button above';

describe("Foundation: rmCloud inside the emulated Jira", () => {
  let harness: Harness;

  beforeAll(async () => {
    harness = await startHarness();
  });

  afterAll(async () => {
    await harness?.stop();
  });

  it("opens a project's add-on page from the emulator home with a signed iframe URL", async () => {
    const page = await harness.newPage();
    await page.goto(harness.emulatorUrl);
    await expect.poll(() => page.locator("table.projects").textContent()).toContain("PUMP");

    await page.locator("tr", { hasText: "PUMP" }).locator("a.project-addon-link").click();
    const frame = await addonFrame(page, harness.addonUrl);

    // The address the host signed, as its iframe holds it: the page itself moves on once signed in.
    const url = new URL((await (await frame.frameElement()).getAttribute("src")) ?? "");
    expect(url.pathname).toBe("/authenticate/requirements");
    expect(url.searchParams.get("projectId")).toBe("10000");
    expect(url.searchParams.get("xdm_e")).toBe(harness.emulatorUrl);
    expect(url.searchParams.get("lic")).toBe("active");
    const site = harness.sites.get("default");
    const jwt = url.searchParams.get("jwt") ?? "";
    const claims = decodeSymmetric(jwt, site?.jira.sharedSecret ?? "", SymmetricAlgorithm.HS256) as {
      iss: string;
      sub: string;
      qsh: string;
    };
    expect(claims.iss).toBe(site?.jira.clientKey);
    url.searchParams.delete("jwt");
    expect(claims.qsh).toBe(createQueryStringHash(fromMethodAndUrl("GET", `${url.pathname}${url.search}`)));
    await page.close();
  });

  it("shows the SPA's empty requirements screen with Global Requirements first in the project dropdown", async () => {
    const page = await harness.newPage();
    await page.goto(`${harness.emulatorUrl}/plugins/servlet/ac/rmcloud/rmcloud-requirements?project.key=PUMP&project.id=10000`);
    const frame = await addonFrame(page, harness.addonUrl);

    await expect(frame.getByText(EMPTY_STATE).waitFor({ timeout: 90_000 })).resolves.toBeUndefined();

    await frame.locator("#project-select").click({ force: true });
    const options = frame.locator('[role="option"], [id*="-option-"]');
    await options.first().waitFor();
    const labels = (await options.allTextContents()).map((text) => text.trim());
    const firstEnabled = labels.filter((label) => label !== "Select a project");
    expect(firstEnabled[0]).toBe("Global Requirements");
    expect(labels).toEqual(expect.arrayContaining(["Infusion Pump Controller", "Mars Rover Firmware", "Payments Platform"]));
    await page.close();
  });

  it("signs the user in with the page itself: its first read carries the token the server wrote into it, and no exchange is asked", async () => {
    const page = await harness.newPage();
    const asked: string[] = [];
    page.on("request", (request) => {
      if (request.url().startsWith(`${harness.addonUrl}/api/`)) asked.push(`${request.method()} ${new URL(request.url()).pathname}`);
    });
    await page.goto(`${harness.emulatorUrl}/plugins/servlet/ac/rmcloud/rmcloud-requirements?project.key=PUMP&project.id=10000`);
    const frame = await addonFrame(page, harness.addonUrl);
    await frame.getByText(EMPTY_STATE).waitFor({ timeout: 90_000 });
    const signedIn = await frame.evaluate(() => document.querySelector('meta[name="rmcloud-signed-in"]')?.getAttribute("content"));
    expect(signedIn).toMatch(/^[\w-]+\.[\w-]+\.[\w-]+$/);
    expect(await frame.evaluate(() => sessionStorage.getItem("rmcloud-token"))).toBe(signedIn);
    expect(asked).toContain("GET /api/item/primary");
    expect(asked).not.toContain("POST /api/exchange-token");
    await page.close();
  });
});
