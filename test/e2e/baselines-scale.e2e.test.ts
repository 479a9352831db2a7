import { describe, expect, it } from "vitest";
import { recordRevisionsBySql } from "../../server/scripts/seedLarge.js";
import { PUMP, requirementsScreenForSuite } from "./requirementsFixture.js";

const REQUIREMENTS = 100_000;

describe("A baseline of 100,000 requirements in the explorer", () => {
  const screen = requirementsScreenForSuite();

  it("scrolls from the first requirement to the last with only the rows in view in the page", async () => {
    // Seeded by SQL, as the benchmark does: 100,000 requirements through the API would take minutes.
    const db = screen.harness.addonDeps.db;
    const [{ tenant_id: tenantId }] = await db("tenants").select("tenant_id");
    const [{ requirement_type_id: typeId }] = await db("requirement_types")
      .where({ tenant_id: tenantId })
      .orderBy("level")
      .select("requirement_type_id");
    await db.raw(
      `INSERT INTO requirements (tenant_id, project_id, requirement_type_id, name, created_by)
       SELECT ?, ?, ?, 'Requirement ' || g, 'seed' FROM generate_series(1, ?) g`,
      [tenantId, PUMP, typeId, REQUIREMENTS],
    );
    await recordRevisionsBySql(db, tenantId, "r.project_id = ?", [PUMP]);
    await screen.api("POST", "/api/baseline", { name: "Everything", project: PUMP, select_all_requirements: true });

    await screen.frame.getByRole("tab", { name: "Baselines" }).click();
    await screen.frame
      .getByRole("navigation", { name: "Baselines" })
      .getByRole("button", { name: /Everything/ })
      .click();
    const table = screen.frame.getByRole("table", { name: "Requirements in baseline" });
    await table.locator("tbody tr", { hasText: "Requirement 1" }).first().waitFor();
    await expect(table.getAttribute("aria-rowcount")).resolves.toBe(String(REQUIREMENTS + 1));
    await table.evaluate((element) => {
      (element.parentElement as HTMLElement).scrollTop = Number.MAX_SAFE_INTEGER;
    });
    await table.locator("tbody tr", { hasText: `Requirement ${REQUIREMENTS}` }).waitFor();
    expect(await table.locator("tbody tr").count()).toBeLessThan(100);
  });
});
