import { buffer } from "node:stream/consumers";
import JSZip from "jszip";
import { describe, expect, it } from "vitest";
import { columnWidths, escapeXml, streamWordTable, type WordCell, type WordTableDocument } from "./wordDocument.js";

const doc: WordTableDocument = {
  title: "Traceability Matrix",
  subtitle: ["Project: Pump Controller", "Exported: November 23rd 2026"],
  columns: [{ heading: "ID" }, { heading: "Name", weight: 2 }, { heading: "Story" }],
};

async function* rowsOf(rows: WordCell[][]) {
  for (const row of rows) yield row;
}

async function unzip(rows: WordCell[][]) {
  const bytes = await buffer(streamWordTable(doc, rowsOf(rows), new Date("2026-11-23T10:00:00Z")));
  return JSZip.loadAsync(bytes);
}

describe("the streamed Word document", () => {
  it("is a package with the parts Word needs, the title, the subtitle and a header row repeated on every page", async () => {
    const zip = await unzip([
      [[[{ text: "SYS-1" }]], [[{ text: "Braking distance" }]], [[{ text: "PUMP-7", bold: true }, { text: " Brake test (Done)" }]]],
    ]);
    expect(Object.keys(zip.files).sort()).toEqual([
      "[Content_Types].xml",
      "_rels/.rels",
      "docProps/core.xml",
      "word/_rels/document.xml.rels",
      "word/document.xml",
      "word/styles.xml",
    ]);
    const xml = await zip.file("word/document.xml")?.async("string");
    expect(xml).toContain("Traceability Matrix");
    expect(xml).toContain("Project: Pump Controller");
    expect(xml).toMatch(/<w:tr><w:trPr><w:tblHeader\/>.*ID.*Name.*Story.*?<\/w:tr>/);
    expect(xml).toContain('<w:r><w:rPr><w:b/></w:rPr><w:t xml:space="preserve">PUMP-7</w:t></w:r>');
    expect(xml?.match(/<w:tr>/g)).toHaveLength(2);
    expect(xml).toMatch(/<\/w:tbl>.*<w:sectPr>.*<\/w:body><\/w:document>$/);
  });

  it("escapes markup and drops characters XML cannot hold", async () => {
    expect(escapeXml('a < b & "c" > d\u0007')).toBe("a &lt; b &amp; &quot;c&quot; &gt; d");
    const zip = await unzip([[[[{ text: "<script>" }]], [], [[{ text: "R&D" }]]]]);
    const xml = (await zip.file("word/document.xml")?.async("string")) ?? "";
    expect(xml).toContain("&lt;script&gt;");
    expect(xml).toContain("R&amp;D");
    expect(xml).not.toContain("<script>");
  });

  it("gives an empty cell its one empty paragraph and shares the page width by weight", async () => {
    const zip = await unzip([[[], [], []]]);
    const xml = (await zip.file("word/document.xml")?.async("string")) ?? "";
    expect(xml).toMatch(/<w:tc><w:tcPr>[\s\S]*?<\/w:tcPr><w:p\/><\/w:tc>/);
    const [id, name, story] = columnWidths(doc.columns);
    expect(Math.abs((name ?? 0) - 2 * (id ?? 0))).toBeLessThanOrEqual(1);
    expect(story).toBe(id);
    expect((id ?? 0) + (name ?? 0) + (story ?? 0)).toBeLessThanOrEqual(16838 - 2 * 720);
  });

  it("fails the stream when the rows fail", async () => {
    async function* failing() {
      yield [[[{ text: "SYS-1" }]]] as WordCell[];
      throw new Error("Jira answered 500");
    }
    await expect(buffer(streamWordTable(doc, failing()))).rejects.toThrow("Jira answered 500");
  });
});
