import { PassThrough, type Readable } from "node:stream";
import yazl from "yazl";

/** A run of text; a paragraph is a list of runs, a table cell a list of paragraphs. */
export type WordRun = { text: string; bold?: boolean };
export type WordParagraph = WordRun[];
export type WordCell = WordParagraph[];

export type WordTableDocument = {
  title: string;
  /** Lines under the title (the project, the export date). */
  subtitle: string[];
  /** Table headings; `weight` shares the page width between columns (default 1). */
  columns: { heading: string; weight?: number }[];
};

/** A4 landscape with 1.27 cm margins, in twentieths of a point: a matrix is wider than it is long. */
const PAGE = { width: 16838, height: 11906, margin: 720 };
const TABLE_WIDTH = PAGE.width - 2 * PAGE.margin;

const CONTENT_TYPES = `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/><Override PartName="/word/document.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml"/><Override PartName="/word/styles.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.styles+xml"/><Override PartName="/docProps/core.xml" ContentType="application/vnd.openxmlformats-package.core-properties+xml"/></Types>`;

const PACKAGE_RELS = `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="word/document.xml"/><Relationship Id="rId2" Type="http://schemas.openxmlformats.org/package/2006/relationships/metadata/core-properties" Target="docProps/core.xml"/></Relationships>`;

const DOCUMENT_RELS = `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/styles" Target="styles.xml"/></Relationships>`;

const STYLES = `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<w:styles xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"><w:docDefaults><w:rPrDefault><w:rPr><w:rFonts w:ascii="Calibri" w:hAnsi="Calibri" w:eastAsia="Calibri" w:cs="Calibri"/><w:sz w:val="18"/><w:szCs w:val="18"/><w:lang w:val="en-US"/></w:rPr></w:rPrDefault><w:pPrDefault><w:pPr><w:spacing w:after="0" w:line="240" w:lineRule="auto"/></w:pPr></w:pPrDefault></w:docDefaults><w:style w:type="paragraph" w:default="1" w:styleId="Normal"><w:name w:val="Normal"/><w:qFormat/></w:style><w:style w:type="paragraph" w:styleId="Title"><w:name w:val="Title"/><w:basedOn w:val="Normal"/><w:next w:val="Normal"/><w:qFormat/><w:pPr><w:spacing w:after="120"/></w:pPr><w:rPr><w:b/><w:sz w:val="40"/><w:szCs w:val="40"/></w:rPr></w:style><w:style w:type="paragraph" w:styleId="Subtitle"><w:name w:val="Subtitle"/><w:basedOn w:val="Normal"/><w:qFormat/><w:pPr><w:spacing w:after="60"/></w:pPr><w:rPr><w:sz w:val="22"/><w:szCs w:val="22"/></w:rPr></w:style><w:style w:type="table" w:default="1" w:styleId="TableNormal"><w:name w:val="Normal Table"/><w:tblPr><w:tblInd w:w="0" w:type="dxa"/><w:tblCellMar><w:top w:w="0" w:type="dxa"/><w:left w:w="108" w:type="dxa"/><w:bottom w:w="0" w:type="dxa"/><w:right w:w="108" w:type="dxa"/></w:tblCellMar></w:tblPr></w:style><w:style w:type="table" w:styleId="TableGrid"><w:name w:val="Table Grid"/><w:basedOn w:val="TableNormal"/><w:tblPr><w:tblBorders><w:top w:val="single" w:sz="4" w:space="0" w:color="808080"/><w:left w:val="single" w:sz="4" w:space="0" w:color="808080"/><w:bottom w:val="single" w:sz="4" w:space="0" w:color="808080"/><w:right w:val="single" w:sz="4" w:space="0" w:color="808080"/><w:insideH w:val="single" w:sz="4" w:space="0" w:color="808080"/><w:insideV w:val="single" w:sz="4" w:space="0" w:color="808080"/></w:tblBorders></w:tblPr></w:style></w:styles>`;

const W_NS = 'xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"';

/** XML 1.0 allows no control characters but tab, newline and carriage return; Jira summaries may hold some. */
// biome-ignore lint/suspicious/noControlCharactersInRegex: removing exactly those characters is the point
const INVALID_XML = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]/g;

export function escapeXml(text: string): string {
  return text.replace(INVALID_XML, "").replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;");
}

const run = (r: WordRun) => `<w:r>${r.bold ? "<w:rPr><w:b/></w:rPr>" : ""}<w:t xml:space="preserve">${escapeXml(r.text)}</w:t></w:r>`;

const paragraph = (p: WordParagraph, style?: string) =>
  `<w:p>${style ? `<w:pPr><w:pStyle w:val="${style}"/></w:pPr>` : ""}${p.map(run).join("")}</w:p>`;

/** A cell needs at least one paragraph, even when empty. */
const cell = (content: WordCell, width: number, shaded = false) =>
  `<w:tc><w:tcPr><w:tcW w:w="${width}" w:type="dxa"/>${shaded ? '<w:shd w:val="clear" w:color="auto" w:fill="DFE1E6"/>' : ""}</w:tcPr>${
    content.length > 0 ? content.map((p) => paragraph(p)).join("") : "<w:p/>"
  }</w:tc>`;

export function columnWidths(columns: WordTableDocument["columns"]): number[] {
  const weights = columns.map((column) => column.weight ?? 1);
  const total = weights.reduce((sum, weight) => sum + weight, 0) || 1;
  return weights.map((weight) => Math.floor((TABLE_WIDTH * weight) / total));
}

/** The document up to and including the header row, which Word and LibreOffice repeat on every page (w:tblHeader). */
export function documentStart(doc: WordTableDocument, widths: number[]): string {
  const header = doc.columns.map((column, i) => cell([[{ text: column.heading, bold: true }]], widths[i] ?? 0, true)).join("");
  return `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<w:document ${W_NS}><w:body>${paragraph([{ text: doc.title }], "Title")}${doc.subtitle
    .map((line) => paragraph([{ text: line }], "Subtitle"))
    .join(
      "",
    )}<w:p/><w:tbl><w:tblPr><w:tblStyle w:val="TableGrid"/><w:tblW w:w="${TABLE_WIDTH}" w:type="dxa"/><w:tblLayout w:type="fixed"/><w:tblLook w:val="04A0" w:firstRow="1" w:lastRow="0" w:firstColumn="0" w:lastColumn="0" w:noHBand="0" w:noVBand="1"/></w:tblPr><w:tblGrid>${widths
    .map((width) => `<w:gridCol w:w="${width}"/>`)
    .join("")}</w:tblGrid><w:tr><w:trPr><w:tblHeader/><w:cantSplit/></w:trPr>${header}</w:tr>`;
}

export function tableRow(cells: WordCell[], widths: number[]): string {
  return `<w:tr>${widths.map((width, i) => cell(cells[i] ?? [], width)).join("")}</w:tr>`;
}

export const DOCUMENT_END = `</w:tbl><w:p/><w:sectPr><w:pgSz w:w="${PAGE.width}" w:h="${PAGE.height}" w:orient="landscape"/><w:pgMar w:top="${PAGE.margin}" w:right="${PAGE.margin}" w:bottom="${PAGE.margin}" w:left="${PAGE.margin}" w:header="360" w:footer="360" w:gutter="0"/></w:sectPr></w:body></w:document>`;

function coreProperties(title: string, created: Date): string {
  return `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<cp:coreProperties xmlns:cp="http://schemas.openxmlformats.org/package/2006/metadata/core-properties" xmlns:dc="http://purl.org/dc/elements/1.1/" xmlns:dcterms="http://purl.org/dc/terms/" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance"><dc:title>${escapeXml(
    title,
  )}</dc:title><dc:creator>rmCloud</dc:creator><dcterms:created xsi:type="dcterms:W3CDTF">${created.toISOString().replace(/\.\d{3}Z$/, "Z")}</dcterms:created></cp:coreProperties>`;
}

const WRITE_CHUNK_CHARS = 64 * 1024;

/**
 * A .docx whose table body is written row by row as `rows` yields them: the fixed package parts
 * first, then word/document.xml streamed through the zip's deflate, so memory holds a row at a
 * time however long the table. The returned stream fails if `rows` throws.
 */
export function streamWordTable(doc: WordTableDocument, rows: AsyncIterable<WordCell[]>, created = new Date()): Readable {
  const zip = new yazl.ZipFile();
  const options = { mtime: created };
  zip.addBuffer(Buffer.from(CONTENT_TYPES), "[Content_Types].xml", options);
  zip.addBuffer(Buffer.from(PACKAGE_RELS), "_rels/.rels", options);
  zip.addBuffer(Buffer.from(coreProperties(doc.title, created)), "docProps/core.xml", options);
  zip.addBuffer(Buffer.from(DOCUMENT_RELS), "word/_rels/document.xml.rels", options);
  zip.addBuffer(Buffer.from(STYLES), "word/styles.xml", options);
  const body = new PassThrough();
  zip.addReadStream(body, "word/document.xml", options);
  zip.end();

  const widths = columnWidths(doc.columns);
  // yazl's output is a stream.PassThrough typed as the older NodeJS.ReadableStream.
  const output = zip.outputStream as unknown as Readable;
  // The rows may fail before the consumer has attached: the error is kept on the destroyed stream
  // (stream.errored), which pipeline() and for-await still report, instead of crashing the process.
  output.on("error", () => undefined);
  // Waits for the zip to read on, or gives up when the reader has gone (a failed upload).
  const write = async (chunk: string) => {
    if (body.write(chunk)) return;
    await new Promise<void>((resolve, reject) => {
      const drained = () => {
        output.off("close", closed);
        resolve();
      };
      const closed = () => {
        body.off("drain", drained);
        reject(new Error("The document's reader went away"));
      };
      body.once("drain", drained);
      output.once("close", closed);
    });
  };
  (async () => {
    // Rows go to the deflate in chunks of some 64 kB, not one by one: each write is a round trip
    // to zlib's thread, and 50,000 small ones cost more than the compression itself.
    let pending = documentStart(doc, widths);
    for await (const cells of rows) {
      pending += tableRow(cells, widths);
      if (pending.length >= WRITE_CHUNK_CHARS) {
        await write(pending);
        pending = "";
      }
    }
    body.end(pending + DOCUMENT_END);
  })().catch((error: unknown) => {
    output.destroy(error instanceof Error ? error : new Error(String(error)));
  });
  return output;
}
