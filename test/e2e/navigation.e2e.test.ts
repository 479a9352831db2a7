import { describe, expect, it } from "vitest";
import { addonFrame } from "./harness.js";
import { PUMP, requirementsScreenForSuite } from "./requirementsFixture.js";

/** Spec section 2: the main screen's place lives in the host's history, so reloads and back/forward keep it. */
describe("the main screen's place in the host history", () => {
  const screen = requirementsScreenForSuite();
  const hostState = () => decodeURIComponent(new URL(screen.page.url()).hash);

  it("opens a shared link, survives a reload, and goes back and forward across requirements and tabs", async () => {
    const valve = await screen.createRequirement("Valve closes on overpressure");
    const alarm = await screen.createRequirement("Alarm sounds on overpressure");

    await screen.open(`${PUMP}-requirements-${valve.requirement_id}`, { page: screen.page });
    await screen.detail(/Valve closes on overpressure/).waitFor();

    await screen.treeItem(`BR-${alarm.requirement_id}: Alarm sounds on overpressure`).click();
    await screen.detail(/Alarm sounds on overpressure/).waitFor();
    expect(hostState()).toBe(`#!${PUMP}-requirements-${alarm.requirement_id}`);

    await screen.page.reload();
    screen.frame = await addonFrame(screen.page, screen.harness.addonUrl);
    await screen.detail(/Alarm sounds on overpressure/).waitFor({ timeout: 60_000 });
    expect(hostState()).toBe(`#!${PUMP}-requirements-${alarm.requirement_id}`);

    await screen.frame.getByRole("tab", { name: "Traceability Matrix" }).click();
    await expect.poll(hostState).toBe(`#!${PUMP}-traceability`);
    await expect.poll(() => new URL(screen.frame.url()).pathname).toBe("/traceability-matrix");

    await screen.page.goBack();
    await screen.detail(/Alarm sounds on overpressure/).waitFor();
    expect(new URL(screen.frame.url()).pathname).toBe("/requirements");

    await screen.page.goBack();
    await screen.detail(/Valve closes on overpressure/).waitFor();
    expect(hostState()).toBe(`#!${PUMP}-requirements-${valve.requirement_id}`);

    await screen.page.goForward();
    await screen.detail(/Alarm sounds on overpressure/).waitFor();
    await screen.page.goForward();
    await expect.poll(hostState).toBe(`#!${PUMP}-traceability`);
    await expect.poll(() => new URL(screen.frame.url()).pathname).toBe("/traceability-matrix");
  });
});
