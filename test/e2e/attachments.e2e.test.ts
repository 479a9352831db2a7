import { readFile } from "node:fs/promises";
import { describe, expect, it } from "vitest";
import { PUMP, requirementsScreenForSuite } from "./requirementsFixture.js";

/** A 1x1 PNG, so the preview has a real image to decode. */
const PNG = Buffer.from("iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==", "base64");

describe("Requirement detail and form: attachments, custom fields and linked issues in the emulated Jira project page", () => {
  const screen = requirementsScreenForSuite();

  const attachments = () => screen.frame.getByRole("region", { name: "Attachments" });
  const picker = () => screen.frame.locator('input[type="file"]');

  it("attaches a file to a requirement, previews it, downloads it and deletes it", async () => {
    const created = await screen.createRequirement("The pump shows its flow diagram");
    await screen.open(`${PUMP}-requirements-${created.requirement_id}`, { page: screen.page });
    await screen.detail(/The pump shows its flow diagram/).waitFor();
    await attachments().getByText("None").waitFor();

    await picker().setInputFiles({ name: "flow.png", mimeType: "image/png", buffer: PNG });
    await screen.flag("Attachment added successfully").waitFor();
    const item = attachments().getByRole("listitem", { name: "flow.png" });
    await item.waitFor();
    const stored = await screen.api<{ attachments: { original_file_name: string }[] }>("GET", `/api/requirement/${created.requirement_id}`);
    expect(stored.attachments.map((attachment) => attachment.original_file_name)).toEqual(["flow.png"]);

    await item.getByRole("button", { name: "Preview flow.png" }).click();
    const preview = screen.dialog().filter({ hasText: "flow.png" });
    const image = preview.getByRole("img", { name: "flow.png" });
    await image.waitFor();
    await expect.poll(() => image.evaluate((img) => (img as HTMLImageElement).naturalWidth)).toBe(1);
    await preview.getByRole("button", { name: "Close" }).click();
    await preview.waitFor({ state: "detached" });

    const [download] = await Promise.all([
      screen.page.waitForEvent("download"),
      item.getByRole("button", { name: "Download flow.png" }).click(),
    ]);
    expect(download.suggestedFilename()).toBe("flow.png");
    expect(Buffer.compare(await readFile(await download.path()), PNG)).toBe(0);

    await item.getByRole("button", { name: "Delete attachment flow.png" }).click();
    const confirm = screen.dialog().filter({ hasText: "Delete attachment" });
    await confirm.getByRole("button", { name: "Delete", exact: true }).click();
    await screen.flag("Attachment deleted successfully").waitFor();
    await item.waitFor({ state: "detached" });
    await attachments().getByText("None").waitFor();
  });

  it("keeps a file someone else attached while the page was open when the user attaches another", async () => {
    const created = await screen.createRequirement("The pump keeps its service log");
    await screen.open(`${PUMP}-requirements-${created.requirement_id}`, { page: screen.page });
    await screen.detail(/The pump keeps its service log/).waitFor();
    await attachments().getByText("None").waitFor();

    const signed = await screen.api<{ presigned_url: string; uuid_file_name: string }>("POST", "/api/sign-s3-put", {
      operation: "attachment",
      original_file_name: "service.txt",
      file_type: "text/plain",
    });
    const put = await fetch(signed.presigned_url, { method: "PUT", headers: { "Content-Type": "text/plain" }, body: "serviced" });
    expect(put.ok).toBe(true);
    const theirs = { original_file_name: "service.txt", uuid_file_name: signed.uuid_file_name };
    await screen.api("PATCH", `/api/requirement/${created.requirement_id}`, { attachments: [theirs] });

    await picker().setInputFiles({ name: "flow.png", mimeType: "image/png", buffer: PNG });
    await screen.flag("Attachment added successfully").waitFor();
    await attachments().getByRole("listitem", { name: "flow.png" }).waitFor();
    await attachments().getByRole("listitem", { name: "service.txt" }).waitFor();
    const stored = await screen.api<{ attachments: { original_file_name: string }[] }>("GET", `/api/requirement/${created.requirement_id}`);
    expect(stored.attachments.map((attachment) => attachment.original_file_name).sort()).toEqual(["flow.png", "service.txt"]);
    const download = await screen.api<{ presigned_url: string }>("POST", "/api/sign-s3-get", theirs);
    expect(await (await fetch(download.presigned_url)).text()).toBe("serviced");
  });

  it("offers a preview for png, jpeg and jpg files only", async () => {
    const created = await screen.createRequirement("The manual is attached");
    await screen.open(`${PUMP}-requirements-${created.requirement_id}`, { page: screen.page });
    await screen.detail(/The manual is attached/).waitFor();

    await picker().setInputFiles({ name: "manual.txt", mimeType: "text/plain", buffer: Buffer.from("Read me first") });
    await screen.flag("Attachment added successfully").waitFor();
    const text = attachments().getByRole("listitem", { name: "manual.txt" });
    await text.waitFor();
    await text.getByRole("button", { name: "Download manual.txt" }).waitFor();
    await expect(text.getByRole("button", { name: /^Preview/ }).count()).resolves.toBe(0);

    await picker().setInputFiles({ name: "photo.JPG", mimeType: "image/jpeg", buffer: PNG });
    await attachments().getByRole("listitem", { name: "photo.JPG" }).getByRole("button", { name: "Preview photo.JPG" }).waitFor();
  });

  it("refuses a file larger than 25 MB before uploading it", async () => {
    const created = await screen.createRequirement("The firmware image is attached");
    await screen.open(`${PUMP}-requirements-${created.requirement_id}`, { page: screen.page });
    await screen.detail(/The firmware image is attached/).waitFor();

    await picker().setInputFiles({
      name: "firmware.bin",
      mimeType: "application/octet-stream",
      buffer: Buffer.alloc(26214401),
    });
    await screen.flag("Error adding attachment: File size cannot exceed 25MB").waitFor();
    await attachments().getByText("None").waitFor();
    const stored = await screen.api<{ attachments: unknown[] }>("GET", `/api/requirement/${created.requirement_id}`);
    expect(stored.attachments).toEqual([]);
  });

  it("fills a custom field and links an issue in the create form; the detail shows the option's name and the issue", async () => {
    await screen.api("POST", "/api/attribute", {
      name: "Risk class",
      project: PUMP,
      type: "select",
      options: [{ name: "Class IIb" }, { name: "Class III" }],
    });
    await screen.api("POST", "/api/attribute", { name: "Source", project: PUMP, type: "string" });
    await screen.open(`${PUMP}-requirements`, { page: screen.page });

    await screen.frame.getByRole("button", { name: "New requirement" }).click();
    const dialog = screen.dialog();
    await dialog.getByLabel(/^Name/).fill("The pump logs every alarm");
    await screen.chooseOption("Requirement type", "Business");
    await screen.chooseOption("Risk class", "Class III");
    await dialog.getByLabel("Source").fill("Hazard analysis");
    await dialog.getByLabel("Linked issues").click();
    const firstIssue = screen.frame.getByRole("option").first();
    const issueLabel = (await firstIssue.textContent()) ?? "";
    const issueKey = issueLabel.split(" ")[0] ?? "";
    expect(issueKey).toMatch(/^PUMP-\d+$/);
    await firstIssue.click();
    await dialog.getByLabel(/^Name/).click();
    await dialog.getByRole("button", { name: "OK" }).click();

    await screen.flag("Requirement created successfully").waitFor();
    await screen.detail(/The pump logs every alarm/).waitFor();
    await expect.poll(() => screen.detailValue("Risk class").textContent()).toBe("Class III");
    await expect(screen.detailValue("Source").textContent()).resolves.toBe("Hazard analysis");
    const linked = screen.frame.getByRole("list", { name: "Linked Issues" });
    const issueLink = linked.getByRole("link", { name: issueKey, exact: true });
    await issueLink.waitFor();
    // The key's address is the issue's page in Jira, so a new tab or a copied link opens Jira, not the add-on.
    const { atlassian_base_url: jiraBaseUrl } = await screen.api<{ atlassian_base_url: string }>("GET", "/api/user");
    expect(await issueLink.getAttribute("href")).toBe(`${jiraBaseUrl.replace(/\/+$/, "")}/browse/${issueKey}`);
  });

  it("creates and edits a requirement with the project's custom fields left untouched: they are optional", async () => {
    await screen.frame.getByRole("button", { name: "New requirement" }).click();
    const dialog = screen.dialog();
    await dialog.getByLabel("Risk class").waitFor();
    await dialog.getByLabel(/^Name/).fill("The pump keeps its event log for a year");
    await screen.chooseOption("Requirement type", "Business");
    await expect.poll(() => dialog.getByRole("button", { name: "OK" }).isDisabled()).toBe(false);
    await dialog.getByRole("button", { name: "OK" }).click();
    await screen.flag("Requirement created successfully").waitFor();
    const detail = screen.detail(/The pump keeps its event log for a year/);
    await detail.waitFor();

    await detail.getByRole("button", { name: "Edit" }).click();
    const edit = screen.dialog();
    await edit.getByLabel("Risk class").waitFor();
    await edit.getByLabel("Description").fill("Kept on the device and in the cloud.");
    await expect.poll(() => edit.getByRole("button", { name: "OK" }).isDisabled()).toBe(false);
    await edit.getByRole("button", { name: "OK" }).click();
    await screen.flag("Requirement edited successfully").waitFor();
  });
});
