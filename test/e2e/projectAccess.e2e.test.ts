import type { Frame, Page } from "playwright-core";
import { expect, it } from "vitest";
import { PROJECT_ACCESS_MESSAGES } from "../../common/errors.js";
import { browseOnlyUser, restrictedUser } from "../../emulator/seed/users.js";
import { NOT_FOUND_TITLES } from "../../client/components/NotFound/notFoundText.js";
import { addonFrame } from "./harness.js";
import { PUMP, requirementsScreenForSuite } from "./requirementsFixture.js";

const ROVER = 10001;

/** Issue 36 in the browser: what Jira does not let a member see or change, rmCloud does not show or offer. */
const screen = requirementsScreenForSuite();

/** The requirements screen at `state`, signed in to the emulated Jira as `accountId`. */
async function openAs(accountId: string, state: string): Promise<{ page: Page; frame: Frame }> {
  const context = await screen.harness.browser.newContext();
  await context.addCookies([{ name: "emulator_user", value: accountId, url: screen.harness.emulatorUrl }]);
  const page = await context.newPage();
  await page.goto(
    `${screen.harness.emulatorUrl}/plugins/servlet/ac/rmcloud/rmcloud-requirements?project.key=PUMP&project.id=${PUMP}#!${state}`,
  );
  return { page, frame: await addonFrame(page, screen.harness.addonUrl) };
}

it("shows the restricted member no ROVER in the project dropdown, and a deep link to a ROVER requirement as not found", async () => {
  const secret = await screen.createRequirement("Rover wheel torque limits", { project: ROVER });
  const { page, frame } = await openAs(restrictedUser.accountId, `${PUMP}-requirements`);
  try {
    await frame.getByRole("button", { name: "New requirement" }).waitFor({ timeout: 90_000 });
    await frame.locator("#project-select").click({ force: true });
    const options = frame.locator('[role="option"], [id*="-option-"]');
    await options.first().waitFor();
    const labels = (await options.allTextContents()).map((text) => text.trim());
    expect(labels).toEqual(expect.arrayContaining(["Global Requirements", "Infusion Pump Controller", "Payments Platform"]));
    expect(labels).not.toContain("Mars Rover Firmware");

    await page.goto("about:blank");
    await page.goto(
      `${screen.harness.emulatorUrl}/plugins/servlet/ac/rmcloud/rmcloud-requirements?project.key=PUMP&project.id=${PUMP}#!${ROVER}-requirements-${secret.requirement_id}`,
    );
    const deepLinked = await addonFrame(page, screen.harness.addonUrl);
    await deepLinked.getByText(NOT_FOUND_TITLES.project).waitFor({ timeout: 60_000 });
    expect(await deepLinked.getByText("Rover wheel torque limits").count()).toBe(0);
    expect(await deepLinked.getByText(/There was a problem|There was an error/).count()).toBe(0);
  } finally {
    await page.context().close();
  }
});

it("disables New requirement for the member who may browse but not edit PUMP, and tells him why", async () => {
  const { page, frame } = await openAs(browseOnlyUser.accountId, `${PUMP}-requirements`);
  try {
    const create = frame.getByRole("button", { name: "New requirement" });
    await create.waitFor({ timeout: 90_000 });
    await expect.poll(() => create.isDisabled(), { timeout: 30_000 }).toBe(true);
    await create.hover({ force: true });
    // The shown tooltip, not the hidden copy Atlaskit keeps for the button's aria-describedby.
    await frame.getByRole("tooltip", { name: PROJECT_ACCESS_MESSAGES.edit, exact: true }).waitFor({ timeout: 10_000 });
  } finally {
    await page.context().close();
  }
});
