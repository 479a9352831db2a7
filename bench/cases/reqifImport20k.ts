import { performance } from "node:perf_hooks";
import { stringify } from "csv-stringify/sync";
import { ImportRequestSchema } from "../../common/schemas/csvImport.js";
import { ReqifImportRequestSchema } from "../../common/schemas/reqif.js";
import { listRequirementTypes } from "../../server/db/requirementTypeStore.js";
import { runImport } from "../../server/services/csv/importRequirements.js";
import { importReqifDocument } from "../../server/services/reqif/importReqif.js";
import { openReqifUpload } from "../../server/services/reqif/openReqifUpload.js";
import { seedDefaultRequirementTypes } from "../../server/services/requirementTypes/seedDefaultRequirementTypes.js";
import { createTenant, createTestApp } from "../../test/helpers/app.js";
import { putImportFile } from "../../test/helpers/csvImport.js";
import { createTestDatabase } from "../../test/helpers/db.js";
import { peakRssAboveIdle, round } from "../measure.js";
import type { BenchCase, BenchContext, BenchResult } from "../types.js";

const OBJECTS = Number(process.env.REQIF_BENCH_OBJECTS ?? 20_000);
const PER_CHAPTER = 500;
const ACCOUNT = "557058:bench";

/** The same requirements both ways: a chapter (folder), a custom ID, a name and a two-paragraph text. */
const requirementOf = (index: number) => ({
  chapter: `Chapter ${Math.floor(index / PER_CHAPTER) + 1}`,
  id: `PUMP-${index}`,
  name: `Infusion requirement ${index}`,
  text: [`The pump shall keep rate ${index}, within 5 %.`, "Checked at start-up."],
});

/** A ReqIF file as DOORS writes one: chapter headings holding their requirements, XHTML text, a ForeignID. */
function reqifFile(count: number): string {
  const value = (definition: string, text: string) =>
    `<ATTRIBUTE-VALUE-STRING THE-VALUE="${text}"><DEFINITION><ATTRIBUTE-DEFINITION-STRING-REF>${definition}</ATTRIBUTE-DEFINITION-STRING-REF></DEFINITION></ATTRIBUTE-VALUE-STRING>`;
  const objects: string[] = [];
  const chapters: string[] = [];
  for (let chapter = 0; chapter * PER_CHAPTER < count; chapter++) {
    objects.push(
      `<SPEC-OBJECT IDENTIFIER="H-${chapter}" LAST-CHANGE="2026-01-01T00:00:00Z"><VALUES>${value("A-CHAPTER", `Chapter ${chapter + 1}`)}</VALUES><TYPE><SPEC-OBJECT-TYPE-REF>T-REQ</SPEC-OBJECT-TYPE-REF></TYPE></SPEC-OBJECT>`,
    );
    const children: string[] = [];
    for (let index = chapter * PER_CHAPTER; index < Math.min(count, (chapter + 1) * PER_CHAPTER); index++) {
      const requirement = requirementOf(index);
      objects.push(
        `<SPEC-OBJECT IDENTIFIER="O-${index}" LAST-CHANGE="2026-01-01T00:00:00Z"><VALUES>${value("A-NAME", requirement.name)}${value("A-ID", requirement.id)}<ATTRIBUTE-VALUE-XHTML><DEFINITION><ATTRIBUTE-DEFINITION-XHTML-REF>A-TEXT</ATTRIBUTE-DEFINITION-XHTML-REF></DEFINITION><THE-VALUE><xhtml:div>${requirement.text.map((paragraph) => `<xhtml:p>${paragraph}</xhtml:p>`).join("")}</xhtml:div></THE-VALUE></ATTRIBUTE-VALUE-XHTML></VALUES><TYPE><SPEC-OBJECT-TYPE-REF>T-REQ</SPEC-OBJECT-TYPE-REF></TYPE></SPEC-OBJECT>`,
      );
      children.push(
        `<SPEC-HIERARCHY IDENTIFIER="SH-${index}" LAST-CHANGE="2026-01-01T00:00:00Z"><OBJECT><SPEC-OBJECT-REF>O-${index}</SPEC-OBJECT-REF></OBJECT></SPEC-HIERARCHY>`,
      );
    }
    chapters.push(
      `<SPEC-HIERARCHY IDENTIFIER="SH-H-${chapter}" LAST-CHANGE="2026-01-01T00:00:00Z"><OBJECT><SPEC-OBJECT-REF>H-${chapter}</SPEC-OBJECT-REF></OBJECT><CHILDREN>${children.join("\n")}</CHILDREN></SPEC-HIERARCHY>`,
    );
  }
  const definition = (kind: string, identifier: string, name: string, type: string) =>
    `<ATTRIBUTE-DEFINITION-${kind} IDENTIFIER="${identifier}" LAST-CHANGE="2026-01-01T00:00:00Z" LONG-NAME="${name}"><TYPE><DATATYPE-DEFINITION-${kind}-REF>${type}</DATATYPE-DEFINITION-${kind}-REF></TYPE></ATTRIBUTE-DEFINITION-${kind}>`;
  return `<?xml version="1.0" encoding="UTF-8"?>
<REQ-IF xmlns="http://www.omg.org/spec/ReqIF/20110401/reqif.xsd" xmlns:xhtml="http://www.w3.org/1999/xhtml"><CORE-CONTENT><REQ-IF-CONTENT>
<DATATYPES><DATATYPE-DEFINITION-STRING IDENTIFIER="D-STRING" LAST-CHANGE="2026-01-01T00:00:00Z" MAX-LENGTH="1000"/><DATATYPE-DEFINITION-XHTML IDENTIFIER="D-XHTML" LAST-CHANGE="2026-01-01T00:00:00Z"/></DATATYPES>
<SPEC-TYPES><SPEC-OBJECT-TYPE IDENTIFIER="T-REQ" LAST-CHANGE="2026-01-01T00:00:00Z" LONG-NAME="Business"><SPEC-ATTRIBUTES>${definition("STRING", "A-CHAPTER", "ReqIF.ChapterName", "D-STRING")}${definition("STRING", "A-NAME", "ReqIF.Name", "D-STRING")}${definition("STRING", "A-ID", "ReqIF.ForeignID", "D-STRING")}${definition("XHTML", "A-TEXT", "ReqIF.Text", "D-XHTML")}</SPEC-ATTRIBUTES></SPEC-OBJECT-TYPE><SPECIFICATION-TYPE IDENTIFIER="T-SPEC" LAST-CHANGE="2026-01-01T00:00:00Z"/></SPEC-TYPES>
<SPEC-OBJECTS>
${objects.join("\n")}
</SPEC-OBJECTS>
<SPECIFICATIONS><SPECIFICATION IDENTIFIER="S" LAST-CHANGE="2026-01-01T00:00:00Z" LONG-NAME="Pump"><TYPE><SPECIFICATION-TYPE-REF>T-SPEC</SPECIFICATION-TYPE-REF></TYPE><CHILDREN>${chapters.join("\n")}</CHILDREN></SPECIFICATION></SPECIFICATIONS>
</REQ-IF-CONTENT></CORE-CONTENT></REQ-IF>
`;
}

/** The same requirements as a CSV file, each in its chapter's folder (the Folder column). */
function csvFile(count: number): string {
  return stringify([
    ["Name", "ID", "Description", "Folder"],
    ...Array.from({ length: count }, (_, index) => {
      const requirement = requirementOf(index);
      return [requirement.name, requirement.id, requirement.text.join("\n\n"), `Pump / ${requirement.chapter}`];
    }),
  ]);
}

/**
 * `reqif-import-20k`: requirements per second through the ReqIF import (the upload copied to a
 * local file, read by the streaming reader, every requirement, folder and 'created' revision
 * written in one transaction) against the CSV import job of the same requirements in the same
 * folders, in the same run on the same database. Rows/s: higher is better. `-peak-rss`: the
 * process's peak RSS above its idle RSS during each import, in MB (lower is better; the issue
 * bounds the ReqIF import's at 150 MB). Numbers taken on a shared machine swing by a third.
 */
async function run(context: BenchContext): Promise<BenchResult[]> {
  const ctx = await createTestApp({}, { database: await createTestDatabase({ postgresUrl: context.databaseUrl }), checkResponses: false });
  try {
    const { tenantId } = await createTenant(ctx.deps.db, "bench-reqif");
    const actor = { tenantId, accountId: ACCOUNT };
    await seedDefaultRequirementTypes(ctx.deps, actor);
    const business = (await listRequirementTypes(ctx.deps.db, tenantId)).find((type) => type.name === "Business");
    if (!business) throw new Error("no Business type");

    const csvName = await putImportFile(ctx.deps, tenantId, csvFile(OBJECTS), "bench.csv");
    const csvRequest = ImportRequestSchema.parse({
      file_name: csvName,
      requirement_type: business.requirement_type_id,
      location: null,
      atlassian_project_id: 1,
    });
    let rss = peakRssAboveIdle();
    let start = performance.now();
    const csv = await runImport(ctx.deps, actor, csvRequest);
    const csvSeconds = (performance.now() - start) / 1000;
    const csvRss = rss.stop();
    if (csv.imported !== OBJECTS) throw new Error(`CSV imported ${csv.imported} of ${OBJECTS}`);

    const reqifName = await putImportFile(ctx.deps, tenantId, reqifFile(OBJECTS), "bench.reqif");
    const reqifRequest = ReqifImportRequestSchema.parse({
      atlassian_project_id: 2,
      file_name: reqifName,
      original_file_name: "bench.reqif",
      parent_folder_id: null,
    });
    rss = peakRssAboveIdle();
    start = performance.now();
    const file = await openReqifUpload(ctx.deps.storage, tenantId, reqifName);
    const reqif = await importReqifDocument(ctx.deps, actor, reqifRequest, file).finally(file.close);
    const reqifSeconds = (performance.now() - start) / 1000;
    const reqifRss = rss.stop();
    if (reqif.requirements_created !== OBJECTS) throw new Error(`ReqIF imported ${reqif.requirements_created} of ${OBJECTS}`);

    const ours = OBJECTS / reqifSeconds;
    const baseline = OBJECTS / csvSeconds;
    return [
      {
        case: "reqif-import-20k",
        db: context.db,
        ours: round(ours, 0),
        baseline: round(baseline, 0),
        unit: "rows/s",
        ratio: round(ours / baseline),
      },
      {
        case: "reqif-import-20k-peak-rss",
        db: context.db,
        ours: round(reqifRss, 1),
        baseline: round(csvRss, 1),
        unit: "MB",
        ratio: round(reqifRss / csvRss),
      },
    ];
  } finally {
    await ctx.destroy();
  }
}

const reqifImport20k: BenchCase = { name: "reqif-import-20k", run };
export default reqifImport20k;
