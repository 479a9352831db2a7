import { execFile } from "node:child_process";
import { createWriteStream } from "node:fs";
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { pipeline } from "node:stream/promises";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { streamWordTable, type WordCell } from "./wordDocument.js";

const run = promisify(execFile);
const ROWS = 1500;

let directory: string;
beforeAll(async () => {
  directory = await mkdtemp(path.join(tmpdir(), "rmcloud-docx-"));
});
afterAll(() => rm(directory, { recursive: true, force: true }));

async function* matrixRows(): AsyncGenerator<WordCell[]> {
  for (let i = 1; i <= ROWS; i++) {
    yield [
      [[{ text: `SYS-${i}` }]],
      [[{ text: `Requirement number ${i}` }]],
      [[{ text: "System" }]],
      i % 3 === 0 ? [] : [[{ text: `PUMP-${i}`, bold: true }, { text: ` Verify requirement ${i} (In Progress)` }]],
    ];
  }
}

/** Text of a PDF, with pdftotext when installed, else by LibreOffice's own text export of the document. */
async function pdfText(pdf: string, docx: string): Promise<string> {
  try {
    await run("pdftotext", ["-layout", pdf, `${pdf}.txt`]);
    return readFile(`${pdf}.txt`, "utf8");
  } catch {
    await run("soffice", ["--headless", "--convert-to", "txt:Text", "--outdir", directory, docx], { timeout: 120_000 });
    return readFile(docx.replace(/\.docx$/, ".txt"), "utf8");
  }
}

async function pageCount(pdf: string): Promise<number> {
  const bytes = await readFile(pdf, "latin1");
  return (bytes.match(/\/Type\s*\/Page[^s]/g) ?? []).length;
}

describe("the streamed Word document in LibreOffice", () => {
  it("converts to a PDF of plausibly many pages holding the first and the last row", async () => {
    const docx = path.join(directory, "matrix.docx");
    await pipeline(
      streamWordTable(
        {
          title: "Traceability Matrix",
          subtitle: ["Project: Pump Controller", "Exported: today"],
          columns: [{ heading: "ID" }, { heading: "Name", weight: 2 }, { heading: "Type" }, { heading: "Story", weight: 3 }],
        },
        matrixRows(),
      ),
      createWriteStream(docx),
    );
    // A profile of its own, so a LibreOffice the machine runs elsewhere does not lock this one out.
    const profile = `file://${path.join(directory, "profile")}`;
    await run("soffice", [`-env:UserInstallation=${profile}`, "--headless", "--convert-to", "pdf", "--outdir", directory, docx], {
      timeout: 170_000,
    });
    const pdf = path.join(directory, "matrix.pdf");
    const pages = await pageCount(pdf);
    // One or two lines a row at 9 pt on A4 landscape: 25 to 40 rows a page.
    expect(pages).toBeGreaterThanOrEqual(Math.floor(ROWS / 60));
    expect(pages).toBeLessThanOrEqual(Math.ceil(ROWS / 10));

    const text = await pdfText(pdf, docx);
    expect(text).toContain("Traceability Matrix");
    expect(text).toContain("Project: Pump Controller");
    expect(text).toContain("Requirement number 1 ");
    expect(text).toContain(`Requirement number ${ROWS}`);
    expect(text).toContain(`PUMP-${ROWS - 1}`);
    // The header row repeats: its heading appears on every page.
    expect((text.match(/Story/g) ?? []).length).toBeGreaterThanOrEqual(pages);
  }, 180_000);
});
