import type { Frame, Page } from "playwright-core";
import { afterAll, beforeAll } from "vitest";
import { addonApi, addonFrame, type Harness, startHarness, signedInToken } from "./harness.js";

export const PUMP = 10000;

export type RequirementType = { requirement_type_id: number; name: string; prefix: string; level: number };
export type CreatedRequirement = { requirement_id: number; revision: number; name: string; prefix: string };

/** A requirement of the first requirement type, created through rmCloud's API as the user whose token is given. */
export async function createRequirementAs(addonUrl: string, token: string, name: string, project: number): Promise<CreatedRequirement> {
  const types = await addonApi<{ requirement_types: RequirementType[] } | RequirementType[]>(
    addonUrl,
    token,
    "GET",
    "/api/requirement/type",
  );
  const [type] = Array.isArray(types) ? types : types.requirement_types;
  if (!type) throw new Error("No requirement type to create a requirement with");
  return addonApi<CreatedRequirement>(addonUrl, token, "POST", "/api/requirement", {
    name,
    description: "",
    project,
    parent_folder_id: null,
    requirement_type_id: type.requirement_type_id,
  });
}

/**
 * The calling suite's own product, started before its first test with the PUMP project's
 * requirements screen open, and stopped after its last.
 */
export function requirementsScreenForSuite(): RequirementsScreen {
  const screen = new RequirementsScreen();
  beforeAll(async () => {
    screen.harness = await startHarness();
    await screen.open(`${PUMP}-requirements`);
  });
  afterAll(async () => {
    await screen.harness?.stop();
  });
  return screen;
}

/** The requirements screen of a project (or another host-history state) in the emulated Jira, and rmCloud's API as its user. */
export class RequirementsScreen {
  page!: Page;
  frame!: Frame;
  token = "";
  /** Set by the constructor, or by requirementsScreenForSuite once its harness has started. */
  harness!: Harness;

  constructor(harness?: Harness) {
    if (harness) this.harness = harness;
  }

  async open(state: string, options: { page?: Page } = {}): Promise<Frame> {
    this.page = options.page ?? (await this.harness.newPage());
    // A URL that differs only in its hash would not load the page again.
    if (options.page) await this.page.goto("about:blank");
    await this.page.goto(
      `${this.harness.emulatorUrl}/plugins/servlet/ac/rmcloud/rmcloud-requirements?project.key=PUMP&project.id=${PUMP}#!${state}`,
    );
    this.frame = await addonFrame(this.page, this.harness.addonUrl);
    // The first load in a fresh add-on waits for Vite to optimise its dependencies.
    await this.frame.getByRole("button", { name: "New requirement" }).waitFor({ timeout: 90_000 });
    this.token = await signedInToken(this.frame);
    return this.frame;
  }

  api<T>(method: string, path: string, body?: unknown): Promise<T> {
    return addonApi<T>(this.harness.addonUrl, this.token, method, path, body);
  }

  async types(): Promise<RequirementType[]> {
    const answer = await this.api<{ requirement_types: RequirementType[] } | RequirementType[]>("GET", "/api/requirement/type");
    return Array.isArray(answer) ? answer : answer.requirement_types;
  }

  async typeOfLevel(level: number): Promise<RequirementType> {
    const type = (await this.types()).find((candidate) => candidate.level === level);
    if (!type) throw new Error(`No requirement type of level ${level}`);
    return type;
  }

  async createRequirement(
    name: string,
    options: { level?: number; project?: number; folderId?: number | null; links?: number[] } = {},
  ): Promise<CreatedRequirement> {
    const type = await this.typeOfLevel(options.level ?? 1);
    return this.api<CreatedRequirement>("POST", "/api/requirement", {
      name,
      description: "",
      project: options.project ?? PUMP,
      parent_folder_id: options.folderId ?? null,
      requirement_type_id: type.requirement_type_id,
      requirements: options.links ?? [],
    });
  }

  async createFolder(name: string, options: { project?: number; parentFolderId?: number } = {}): Promise<{ folder_id: number }> {
    return this.api("POST", "/api/folder", { name, project: options.project ?? PUMP, parent_folder_id: options.parentFolderId ?? null });
  }

  /** The tree's row of a folder or requirement. */
  treeItem(name: string | RegExp) {
    return this.frame.getByRole("treeitem").filter({ hasText: name });
  }

  /** The open requirement or folder on the right. */
  detail(name: string | RegExp = /.*/) {
    return this.frame.getByRole("article", { name });
  }

  /** A value of the requirement's details table. */
  detailValue(label: string) {
    return this.frame
      .getByRole("article")
      .locator("tr")
      .filter({ has: this.frame.locator("th", { hasText: new RegExp(`^${label}$`) }) })
      .locator("td");
  }

  dialog() {
    return this.frame.getByRole("dialog");
  }

  /** A flag (toast) with this text, as Atlaskit renders it. */
  flag(text: string | RegExp) {
    return this.frame.locator('[role="alert"], [role="status"], [data-testid*="flag"]').filter({ hasText: text }).first();
  }

  async chooseOption(label: string, option: string | RegExp) {
    // Required fields' labels end in an asterisk.
    await this.dialog()
      .getByLabel(new RegExp(`^${label}`))
      .click();
    await this.frame.getByRole("option", { name: option }).first().click();
  }

  async close() {
    await this.page.close();
  }
}
