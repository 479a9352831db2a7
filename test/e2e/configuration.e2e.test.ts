import type { Frame, Locator, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ADMINISTRATORS_ONLY } from "../../common/errors.js";
import { restrictedUser } from "../../emulator/seed/users.js";
import { addonApi, addonFrame, type Harness, startHarness, signedInToken } from "./harness.js";

const PUMP_PROJECT = 10000;
const ALANA = { accountId: "5b10a2844c20165700ede21g", email: "alana.grant@example.com" };

describe("The configuration page in the emulated Jira", () => {
  let harness: Harness;
  let page: Page;
  let config: Frame;
  let token: string;

  /** rmCloud's API as the administrator on the configuration page. */
  const api = <T = unknown>(method: string, path: string, body?: unknown) => addonApi<T>(harness.addonUrl, token, method, path, body);

  const openConfiguration = async () => {
    await page.goto(harness.emulatorUrl);
    await page.getByRole("link", { name: "rmCloud configuration" }).click();
    config = await addonFrame(page, harness.addonUrl, "configuration");
    // The first load in a fresh add-on waits for Vite to optimise its dependencies.
    await config.getByRole("heading", { name: "Requirement Types" }).waitFor({ timeout: 90_000 });
  };

  const issueId = (key: string) => {
    const issue = harness.sites.get("default")?.content.issues.find((candidate) => candidate.key === key);
    if (!issue) throw new Error(`The emulator has no issue ${key}`);
    return issue.id;
  };

  const createRequirement = (name: string, requirementTypeId: number, extra: Record<string, unknown> = {}) =>
    api<{ requirement_id: number }>("POST", "/api/requirement", {
      name,
      description: "",
      project: PUMP_PROJECT,
      parent_folder_id: null,
      requirement_type_id: requirementTypeId,
      ...extra,
    });

  const anyTypeId = async () => {
    const types = await api<{ requirement_types: Array<{ requirement_type_id: number }> }>("GET", "/api/requirement/type");
    const first = types.requirement_types[0];
    if (!first) throw new Error("No requirement types");
    return first.requirement_type_id;
  };

  const appComments = async (key: string) => {
    await page.goto(`${harness.emulatorUrl}/browse/${key}`);
    return page.locator('.comment[data-author-type="app"]').allTextContents();
  };

  /** Picks an option of an Atlaskit select (react-select) by typing into it. */
  const choose = async (input: Locator, option: string) => {
    await input.click({ force: true });
    await input.pressSequentially(option.slice(0, 6));
    await config.locator('[id*="-option-"]', { hasText: option }).first().click();
  };

  const typeRow = (name: string) => config.getByRole("row").filter({ hasText: name });

  beforeAll(async () => {
    harness = await startHarness();
    page = await harness.newPage();
    await openConfiguration();
    token = await signedInToken(config);
  });

  afterAll(async () => {
    await harness?.stop();
  });

  it("shows the four sections of the spec", async () => {
    expect(token).not.toBe("");
    for (const name of ["Requirement Types", "Custom Fields", "Link Confluence Content", "Other settings"]) {
      await config.getByRole("heading", { name, exact: true }).waitFor();
    }
  });

  it("creates a requirement type, which then appears in the list", async () => {
    const form = config.getByRole("form", { name: "Create a requirement type" });
    const create = form.getByRole("button", { name: "Create requirement type" });
    expect(await create.isDisabled()).toBe(true);
    await form.getByLabel("Name").fill("Safety requirement");
    await form.getByLabel("Prefix").fill("SAF");
    await create.click();

    await config.getByText("Requirement type created successfully").waitFor();
    await typeRow("Safety requirement").filter({ hasText: "SAF" }).waitFor();
    const types = await api<{ requirement_types: Array<{ name: string; prefix: string }> }>("GET", "/api/requirement/type");
    expect(types.requirement_types).toContainEqual(expect.objectContaining({ name: "Safety requirement", prefix: "SAF" }));
  });

  it("edits a requirement type's name inline", async () => {
    // The inline edit opens on a click on the value (the value is its edit button).
    await typeRow("Safety requirement").getByText("Safety requirement", { exact: true }).click();
    const input = config.getByRole("textbox", { name: "Name of Safety requirement" });
    await input.fill("Hazard requirement");
    await input.press("Enter");

    await config.getByText("Requirement type updated successfully").waitFor();
    await typeRow("Hazard requirement").waitFor();
    const types = await api<{ requirement_types: Array<{ name: string; prefix: string }> }>("GET", "/api/requirement/type");
    expect(types.requirement_types).toContainEqual(expect.objectContaining({ name: "Hazard requirement", prefix: "SAF" }));
  });

  it("edits inline with the keyboard: Escape keeps the value, an invalid one is refused at its field, Enter saves", async () => {
    const typeOf = async (name: string) => {
      const types = await api<{ requirement_types: Array<{ name: string; prefix: string; level: number }> }>(
        "GET",
        "/api/requirement/type",
      );
      return types.requirement_types.find((type) => type.name === name);
    };
    const row = typeRow("Hazard requirement");
    const prefix = row.getByRole("textbox", { name: "Prefix of Hazard requirement" });

    await row.getByText("SAF", { exact: true }).click();
    await prefix.fill("GONE");
    await prefix.press("Escape");
    await prefix.waitFor({ state: "detached" });
    await row.getByText("SAF", { exact: true }).waitFor();

    const edit = row.getByRole("button", { name: "SAF Edit prefix of hazard requirement" });
    await edit.focus();
    await edit.press("Enter");
    await prefix.fill("");
    await row.getByText("Required", { exact: true }).waitFor();
    await prefix.fill("PREFIX-TOO-LONG");
    await row.getByText("Enter no more than 10 characters", { exact: true }).waitFor();
    await prefix.press("Enter");
    // Refused before any request: the field stays open with its message.
    expect(await prefix.inputValue()).toBe("PREFIX-TOO-LONG");
    expect((await typeOf("Hazard requirement"))?.prefix).toBe("SAF");

    await prefix.fill("HAZ");
    await row.getByText("Enter no more than 10 characters", { exact: true }).waitFor({ state: "detached" });
    await prefix.press("Enter");
    await expect.poll(async () => (await typeOf("Hazard requirement"))?.prefix).toBe("HAZ");
    await row.getByRole("button", { name: "HAZ Edit prefix of hazard requirement" }).waitFor();
    // Back on the value it edited, as Atlaskit's inline edit left it.
    expect(await config.evaluate(() => document.activeElement?.textContent)).toBe("HAZ Edit prefix of hazard requirement");

    const level = row.getByRole("textbox", { name: "Level of Hazard requirement" });
    await row.getByText("1", { exact: true }).click();
    await level.fill("100");
    await row.getByText("Level must be between 1 and 99", { exact: true }).waitFor();
    await level.fill("2");
    await row.getByRole("button", { name: "Confirm" }).click();
    await expect.poll(async () => (await typeOf("Hazard requirement"))?.level).toBe(2);
    await level.waitFor({ state: "detached" });
  });

  it("refuses to delete a type that an active requirement has, with the spec's error toast", async () => {
    const types = await api<{ requirement_types: Array<{ requirement_type_id: number; name: string }> }>("GET", "/api/requirement/type");
    const hazard = types.requirement_types.find((type) => type.name === "Hazard requirement");
    expect(hazard).toBeDefined();
    await createRequirement("The pump stops on occlusion", hazard?.requirement_type_id ?? 0);

    await config.getByRole("button", { name: "Delete Hazard requirement" }).click();
    const dialog = config.getByRole("dialog");
    await dialog.getByText("Delete requirement type").waitFor();
    await dialog.getByRole("button", { name: "Delete", exact: true }).click();

    // The spec's toast: title Error, then the text.
    const flag = config.getByRole("alert").filter({ hasText: "There was a problem deleting your requirement type" });
    await flag.getByText("Error", { exact: true }).waitFor();
    const text = flag.getByText(/^There was a problem deleting your requirement type: .+/);
    await text.waitFor();
    expect(await text.textContent()).toContain("cannot be deleted because 1 requirement uses it");
    await dialog.getByRole("button", { name: "Cancel" }).click();
    await typeRow("Hazard requirement").waitFor();
  });

  it("creates a select custom field with options, within the limits of the spec", async () => {
    const form = config.getByRole("form", { name: "Create a custom field" });
    const submit = form.getByRole("button", { name: "Create custom field" });
    await form.getByLabel("Field name").fill("Severity");
    expect(await submit.isDisabled()).toBe(true);

    await choose(form.getByLabel("Project"), "Infusion Pump Controller");
    await choose(form.getByLabel("Field type"), "Field with pre-defined options");

    const addOption = form.getByRole("button", { name: "Add option" });
    const names = ["Catastrophic", "Critical", "Serious", "Minor", "Negligible", "S6", "S7", "S8", "S9", "S10"];
    for (const [index, name] of names.entries()) {
      if (index > 0) await addOption.click();
      await form.getByRole("textbox", { name: `Option ${index + 1}`, exact: true }).fill(name);
    }
    expect(await addOption.isDisabled()).toBe(true);

    const last = form.getByRole("textbox", { name: "Option 10", exact: true });
    await last.fill("x".repeat(76));
    await form.getByText("Enter no more than 75 characters").waitFor();
    expect(await submit.isDisabled()).toBe(true);

    await last.fill("x".repeat(75));
    await form.getByText("Enter no more than 75 characters").waitFor({ state: "detached" });
    // Back to five options: the add button is enabled again below the limit.
    for (let option = 10; option > 5; option--) await form.getByRole("button", { name: `Remove option ${option}` }).click();
    expect(await addOption.isDisabled()).toBe(false);
    await submit.click();

    await config.getByText("Custom field created successfully").waitFor();
    const fieldRow = config.getByRole("row").filter({ hasText: "Severity" });
    await fieldRow.filter({ hasText: "Infusion Pump Controller" }).waitFor();
    expect(await fieldRow.textContent()).toContain("Catastrophic, Critical, Serious, Minor, Negligible");
  });

  it("offers the select custom field in the requirement create form of its project", async () => {
    const requirements = await harness.newPage();
    await requirements.goto(harness.emulatorUrl);
    await requirements.locator("tr", { hasText: "PUMP" }).locator("a.project-addon-link").click();
    const frame = await addonFrame(requirements, harness.addonUrl, "requirements");
    await frame.getByRole("button", { name: "New requirement" }).click({ timeout: 90_000 });

    const dialog = frame.getByRole("dialog");
    const severity = dialog.getByLabel("Severity");
    await severity.waitFor();
    await severity.click({ force: true });
    const options = frame.locator('[id*="-option-"]');
    await options.first().waitFor();
    expect((await options.allTextContents()).map((text) => text.trim())).toEqual([
      "Catastrophic",
      "Critical",
      "Serious",
      "Minor",
      "Negligible",
    ]);
    await requirements.context().close();
  });

  it("saves the settings and shows them again after a reload", async () => {
    const form = config.getByRole("form", { name: "Other settings" });
    const comment = form.getByRole("checkbox", { name: "Comment on associated issues" });
    const email = form.getByRole("checkbox", { name: "Email notification to assignee" });
    expect(await comment.isChecked()).toBe(false);
    await form.getByText("Comment on associated issues", { exact: true }).click();
    await form.getByText("Email notification to assignee", { exact: true }).click();
    expect(await comment.isChecked()).toBe(true);
    expect(await email.isChecked()).toBe(true);
    await form.getByLabel("Confluence spaces to filter").fill("ENG,DOCS");
    await form.getByRole("button", { name: "Save settings" }).click();
    await config.getByText("Settings saved successfully").waitFor();

    await openConfiguration();
    const reloaded = config.getByRole("form", { name: "Other settings" });
    await reloaded.getByLabel("Confluence spaces to filter").waitFor();
    expect(await reloaded.getByRole("checkbox", { name: "Comment on associated issues" }).isChecked()).toBe(true);
    expect(await reloaded.getByRole("checkbox", { name: "Email notification to assignee" }).isChecked()).toBe(true);
    expect(await reloaded.getByLabel("Confluence spaces to filter").inputValue()).toBe("ENG,DOCS");
  });

  it("with 'Comment on associated issues' on, linking a requirement comments on the Jira issue", async () => {
    const settings = await api<{ comment_on_associated_issues: boolean }>("GET", "/api/customer/settings");
    expect(settings.comment_on_associated_issues).toBe(true);
    const requirement = await createRequirement("An alarm sounds on occlusion", await anyTypeId());
    await api("PUT", `/api/issue/${issueId("PUMP-2")}`, { requirements: [requirement.requirement_id] });

    await expect
      .poll(() => appComments("PUMP-2"), { timeout: 20_000 })
      .toContainEqual(expect.stringContaining("An alarm sounds on occlusion"));
    const comment = page.locator(".comment", { hasText: "An alarm sounds on occlusion" });
    expect(await comment.textContent()).toContain("was linked to this issue");
    expect(await comment.locator(".app-badge").textContent()).toBe("APP");
  });

  it("with the switch off, linking a requirement leaves the issue without a new comment", async () => {
    await api("PATCH", "/api/customer/settings", { comment_on_associated_issues: false });
    const typeId = await anyTypeId();
    const unannounced = await createRequirement("The display dims at night", typeId);
    await api("PUT", `/api/issue/${issueId("PUMP-3")}`, { requirements: [unannounced.requirement_id] });

    // A link made after switching back on proves the earlier one was processed and said nothing.
    await api("PATCH", "/api/customer/settings", { comment_on_associated_issues: true });
    const announced = await createRequirement("The battery lasts eight hours", typeId);
    await api("PUT", `/api/issue/${issueId("PUMP-3")}`, { requirements: [unannounced.requirement_id, announced.requirement_id] });

    await expect
      .poll(() => appComments("PUMP-3"), { timeout: 20_000 })
      .toContainEqual(expect.stringContaining("The battery lasts eight hours"));
    const comments = await appComments("PUMP-3");
    expect(comments).toHaveLength(1);
    expect(comments.join("\n")).not.toContain("The display dims at night");
  });

  it("with 'Email notification to assignee' on, the new assignee's email lands in the outbox", async () => {
    const settings = await api<{ send_email_notification_to_assignee: boolean }>("GET", "/api/customer/settings");
    expect(settings.send_email_notification_to_assignee).toBe(true);
    await createRequirement("The pump logs every dose", await anyTypeId(), { assigned_to: ALANA.accountId });

    const mail = page.locator("table.outbox tbody tr", { hasText: "The pump logs every dose" });
    await expect
      .poll(
        async () => {
          await page.goto(`${harness.emulatorUrl}/_emulator/outbox`);
          return mail.count();
        },
        { timeout: 20_000 },
      )
      .toBe(1);
    expect(await mail.textContent()).toContain(ALANA.email);
    await mail.getByRole("link").click();
    await page.getByText("The pump logs every dose").first().waitFor();
    expect(await page.content()).toContain(`ac.requirementId=`);
  });

  it("tells a member who is not a Jira administrator why her changes were not saved, and changes nothing", async () => {
    const before = await api<{ requirement_types: unknown[] }>("GET", "/api/requirement/type");
    const settingsBefore = await api("GET", "/api/customer/settings");
    const context = await harness.browser.newContext();
    await context.addCookies([{ name: "emulator_user", value: restrictedUser.accountId, url: harness.emulatorUrl }]);
    const member = await context.newPage();
    try {
      await member.goto(harness.emulatorUrl);
      await member.getByRole("link", { name: "rmCloud configuration" }).click();
      const memberConfig = await addonFrame(member, harness.addonUrl, "configuration");
      await memberConfig.getByRole("heading", { name: "Requirement Types" }).waitFor({ timeout: 90_000 });

      const typeForm = memberConfig.getByRole("form", { name: "Create a requirement type" });
      await typeForm.getByLabel("Name").fill("Not allowed");
      await typeForm.getByLabel("Prefix").fill("NA");
      await typeForm.getByRole("button", { name: "Create requirement type" }).click();
      await memberConfig.getByText(`There was a problem saving your requirement type: ${ADMINISTRATORS_ONLY}`).waitFor();

      const settingsForm = memberConfig.getByRole("form", { name: "Other settings" });
      await settingsForm.getByText("Email notification to assignee", { exact: true }).click();
      await settingsForm.getByRole("button", { name: "Save settings" }).click();
      await memberConfig.getByText(`There was an error saving your settings: ${ADMINISTRATORS_ONLY}`).waitFor();
    } finally {
      await context.close();
    }
    expect(await api("GET", "/api/requirement/type")).toEqual(before);
    expect(await api("GET", "/api/customer/settings")).toEqual(settingsBefore);
  });
});
