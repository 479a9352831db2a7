import { describe, expect, it } from "vitest";
import { ReqifFileError, readReqif } from "./readReqif.js";

const NS = 'xmlns="http://www.omg.org/spec/ReqIF/20110401/reqif.xsd"';

/** A minimal ReqIF file: one enumeration and one string attribute, spec objects as given. */
const reqif = (objects: string, datatypes = "") => `<?xml version="1.0" encoding="UTF-8"?>
<REQ-IF ${NS}>
  <CORE-CONTENT>
    <REQ-IF-CONTENT>
      <DATATYPES>
        <DATATYPE-DEFINITION-STRING IDENTIFIER="T-STRING" LONG-NAME="String" MAX-LENGTH="100"/>
        <DATATYPE-DEFINITION-ENUMERATION IDENTIFIER="T-COLOUR" LONG-NAME="Colour">
          <SPECIFIED-VALUES>
            <ENUM-VALUE IDENTIFIER="RED" LONG-NAME="Red"/>
          </SPECIFIED-VALUES>
        </DATATYPE-DEFINITION-ENUMERATION>${datatypes}
      </DATATYPES>
      <SPEC-TYPES>
        <SPEC-OBJECT-TYPE IDENTIFIER="OT" LONG-NAME="Requirement">
          <SPEC-ATTRIBUTES>
            <ATTRIBUTE-DEFINITION-ENUMERATION IDENTIFIER="A-COLOUR" LONG-NAME="Colour" MULTI-VALUED="false">
              <TYPE><DATATYPE-DEFINITION-ENUMERATION-REF>T-COLOUR</DATATYPE-DEFINITION-ENUMERATION-REF></TYPE>
            </ATTRIBUTE-DEFINITION-ENUMERATION>
            <ATTRIBUTE-DEFINITION-STRING IDENTIFIER="A-NAME" LONG-NAME="ReqIF.Name">
              <TYPE><DATATYPE-DEFINITION-STRING-REF>T-STRING</DATATYPE-DEFINITION-STRING-REF></TYPE>
            </ATTRIBUTE-DEFINITION-STRING>
          </SPEC-ATTRIBUTES>
        </SPEC-OBJECT-TYPE>
      </SPEC-TYPES>
      <SPEC-OBJECTS>${objects}
      </SPEC-OBJECTS>
    </REQ-IF-CONTENT>
  </CORE-CONTENT>
</REQ-IF>
`;

const object = (identifier: string, values: string) => `
        <SPEC-OBJECT IDENTIFIER="${identifier}">
          <TYPE><SPEC-OBJECT-TYPE-REF>OT</SPEC-OBJECT-TYPE-REF></TYPE>
          <VALUES>${values}</VALUES>
        </SPEC-OBJECT>`;
const nameValue = (name: string) =>
  `<ATTRIBUTE-VALUE-STRING THE-VALUE="${name}"><DEFINITION><ATTRIBUTE-DEFINITION-STRING-REF>A-NAME</ATTRIBUTE-DEFINITION-STRING-REF></DEFINITION></ATTRIBUTE-VALUE-STRING>`;
const colourValue = (ref: string) =>
  `<ATTRIBUTE-VALUE-ENUMERATION><DEFINITION><ATTRIBUTE-DEFINITION-ENUMERATION-REF>A-COLOUR</ATTRIBUTE-DEFINITION-ENUMERATION-REF></DEFINITION><VALUES><ENUM-VALUE-REF>${ref}</ENUM-VALUE-REF></VALUES></ATTRIBUTE-VALUE-ENUMERATION>`;

/** The file fed in pieces of `size` bytes, as a slow upload arrives. */
async function* inPieces(text: string, size: number) {
  const bytes = Buffer.from(text, "utf8");
  for (let start = 0; start < bytes.length; start += size) yield bytes.subarray(start, start + size);
}

const refusal = async (text: string) => {
  const error = await readReqif(inPieces(text, 4096)).then(
    () => undefined,
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(ReqifFileError);
  return (error as Error).message;
};

describe("reading a ReqIF file", () => {
  it("reads objects with their values, however the bytes are split (multi-byte characters across pieces)", async () => {
    const text = reqif(object("O-1", nameValue("Pumpe für Ölförderung — ✓") + colourValue("RED")));
    for (const size of [1, 3, 7, 4096]) {
      const document = await readReqif(inPieces(text, size));
      expect(document.specObjects.get("O-1")?.values.map((value) => value.text || value.enumValues?.join())).toEqual([
        "Pumpe für Ölförderung — ✓",
        "RED",
      ]);
    }
  });

  it("refuses entity expansion (billion laughs) at the DOCTYPE, naming its line", async () => {
    const laughs = `<?xml version="1.0"?>
<!DOCTYPE REQ-IF [
  <!ENTITY lol "lol">
  <!ENTITY lol2 "&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;">
  <!ENTITY lol3 "&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;">
]>
<REQ-IF ${NS}><THE-HEADER><REQ-IF-HEADER IDENTIFIER="H"><TITLE>&lol3;</TITLE></REQ-IF-HEADER></THE-HEADER></REQ-IF>`;
    expect(await refusal(laughs)).toMatch(/^Line [2-6]: the file declares a DOCTYPE/);
  });

  it("refuses external entities (a file of the server pulled in)", async () => {
    const external = `<?xml version="1.0"?>
<!DOCTYPE REQ-IF [<!ENTITY secret SYSTEM "file:///etc/passwd">]>
<REQ-IF ${NS}><THE-HEADER><REQ-IF-HEADER IDENTIFIER="H"><TITLE>&secret;</TITLE></REQ-IF-HEADER></THE-HEADER></REQ-IF>`;
    const message = await refusal(external);
    expect(message).toMatch(/^Line 2: the file declares a DOCTYPE/);
    expect(message).not.toContain("root:");
  });

  it("refuses an entity no DTD declares, naming the line", async () => {
    const text = reqif(object("O-1", nameValue("&undeclared;")));
    expect(await refusal(text)).toMatch(/^Line 2\d: the file is not well-formed XML \(undefined entity\)$/);
  });

  it("refuses malformed XML, naming the line", async () => {
    const text = reqif(object("O-1", nameValue("x")).replace("</VALUES>", ""));
    expect(await refusal(text)).toMatch(/^Line \d+: the file is not well-formed XML/);
  });

  it("refuses a file whose root is not REQ-IF", async () => {
    expect(await refusal(`<?xml version="1.0"?>\n<html><body/></html>`)).toBe(
      "Line 2: the file is not ReqIF: its root element is <html>, not <REQ-IF>",
    );
  });

  it("refuses an unknown datatype, naming the element and its line", async () => {
    const text = reqif("", `\n        <DATATYPE-DEFINITION-COMPLEX IDENTIFIER="T-COMPLEX"/>`);
    expect(await refusal(text)).toMatch(/^Line 12: unknown datatype DATATYPE-DEFINITION-COMPLEX/);
  });

  it("refuses a value of an unknown datatype", async () => {
    const text = reqif(object("O-1", `<ATTRIBUTE-VALUE-VECTOR THE-VALUE="1,2"><DEFINITION><X>A</X></DEFINITION></ATTRIBUTE-VALUE-VECTOR>`));
    expect(await refusal(text)).toMatch(/^Line \d+: unknown datatype ATTRIBUTE-VALUE-VECTOR/);
  });

  it("refuses a dangling reference to an enumeration value its enumeration does not define", async () => {
    const text = reqif(object("O-1", colourValue("PURPLE")));
    expect(await refusal(text)).toMatch(/^Line \d+: spec object O-1 names enumeration value PURPLE, which T-COLOUR does not define/);
  });

  it("refuses nesting deeper than any real file", async () => {
    const deep = `<?xml version="1.0"?>\n<REQ-IF ${NS}>${"<X>".repeat(300)}${"</X>".repeat(300)}</REQ-IF>`;
    expect(await refusal(deep)).toMatch(/nest deeper than 256 levels/);
  });

  it("refuses an empty file", async () => {
    expect(await refusal("")).toBe("Line 1: the file is not ReqIF, not even XML (document must contain a root element)");
  });
});
