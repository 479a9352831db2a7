import { describe, expect, it, vi } from "vitest";
import { jobSchemaOf } from "../../server/jobs/queue.js";
import { storageKey } from "../../server/storage/objectStorage.js";
import { postRequirement } from "../helpers/app.js";
import { setUpFaultSite } from "./fixture.js";

const PROJECT = 10000;
const IMPORTED_PROJECT = 30000;
const IMPORTED_ROWS = 20_000;
const OUTAGE_MS = 3000;

const site = setUpFaultSite({ jobs: { work: true } });

const importedRows = async () =>
  Number(
    (await site.ctx.deps.db("requirements").where({ tenant_id: site.tenant.tenantId, project_id: IMPORTED_PROJECT }).count("* as n"))[0]?.n,
  );

describe("PostgreSQL going away (every connection of the add-on's database cut, new ones refused)", () => {
  it(`for ${OUTAGE_MS / 1000} s while the API serves reads and an import and a Word export run: 503 meanwhile, then the API recovers without a restart, the import is whole or absent and then whole, the export finishes, each job once`, async () => {
    const requirementId = await postRequirement(site.ctx, site.auth, "Dose within 2 % of the set rate", site.types.SYS, PROJECT);
    const read = () => site.api().get(`/api/requirement/${requirementId}`).set("Authorization", site.auth);
    expect((await read()).status).toBe(200);

    const { jobId: importId, file } = await site.startImport(IMPORTED_ROWS, IMPORTED_PROJECT);
    // The export's first Jira read is let through once the outage has begun, so the export runs across it.
    const issueTypes = site.holdJira("/rest/api/3/issuetype");
    const exportId = await site.startWordExport(PROJECT);
    await vi.waitFor(async () => expect((await site.statusOf(importId)).status).toBe("started"), { timeout: 20_000, interval: 50 });

    // Reads keep coming throughout; the import is seen whole or not at all at every look the database allows.
    const answers: { status: number; duringOutage: boolean }[] = [];
    const partialImports: number[] = [];
    let inOutage = true;
    let reading = true;
    const reader = (async () => {
      while (reading) {
        const res = await read();
        answers.push({ status: res.status, duringOutage: inOutage });
        const rows = await importedRows().catch(() => undefined);
        if (rows !== undefined && rows !== 0 && rows !== IMPORTED_ROWS) partialImports.push(rows);
        await new Promise((resolve) => setTimeout(resolve, 25));
      }
    })();
    const outage = site.database.outage(OUTAGE_MS);
    issueTypes.release();
    const cut = await outage;
    inOutage = false;
    const recoveredAt = Date.now();
    await vi.waitFor(async () => expect((await read()).status).toBe(200), { timeout: 10_000, interval: 100 });
    const recoveryMs = Date.now() - recoveredAt;
    reading = false;
    await reader;

    const refused = answers.filter((answer) => answer.duringOutage && answer.status === 503).length;
    console.info(`${cut} connections cut; ${refused} reads answered 503 during the outage; answering again ${recoveryMs} ms after it`);
    expect(cut).toBeGreaterThan(0);
    expect(refused).toBeGreaterThan(0);
    expect(answers.filter((answer) => answer.status !== 200 && answer.status !== 503)).toEqual([]);
    expect(recoveryMs).toBeLessThan(5000);
    expect(partialImports).toEqual([]);

    expect(await site.finished(importId)).toMatchObject({ completed_rows: IMPORTED_ROWS });
    const exportStatus = await site.finished(exportId);
    expect(await importedRows()).toBe(IMPORTED_ROWS);
    expect(await site.ctx.deps.db("csv_imports").where({ uuid_file_name: file })).toHaveLength(1);
    expect(await site.ctx.deps.db("requirement_revisions").where({ tenant_id: site.tenant.tenantId })).toHaveLength(IMPORTED_ROWS + 1);
    // Each job's one delivery that ran to its end: pg-boss completed it once, after the try the outage broke.
    const deliveries = await site.ctx.deps.db
      .withSchema(jobSchemaOf(site.ctx.deps.db))
      .from("job")
      .whereIn("id", [importId, exportId])
      .select("state");
    expect(deliveries.map((delivery) => delivery.state)).toEqual(["completed", "completed"]);
    const exportKey = storageKey(site.tenant.tenantId, "exports", String(exportStatus.result?.file_name));
    expect((await site.ctx.deps.storage.head(exportKey))?.size).toBeGreaterThan(0);
  }, 150_000);
});
