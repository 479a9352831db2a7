import { describe, expect, it } from "vitest";
import type { CustomAttribute } from "../../api/requirements.js";
import { ATTRIBUTE_OPTION_MISSING, attributeText, componentNames, contentUrl, typeLabel } from "./detailValues.js";

const risk: CustomAttribute = {
  attribute_id: 1,
  name: "Risk",
  type: "select",
  options: [
    { attribute_option_id: 10, name: "High" },
    { attribute_option_id: 11, name: "Low" },
  ],
  atlassian_project_id: 10000,
  project: 10000,
};
const source: CustomAttribute = {
  attribute_id: 2,
  name: "Source",
  type: "string",
  options: [],
  atlassian_project_id: 10000,
  project: 10000,
};

describe("values of the requirement details table", () => {
  it("shows the type as '{type name} Requirement'", () => {
    expect(typeLabel({ requirement_type: { requirement_type_id: 2, name: "System", prefix: "SYS", level: 2 } })).toBe("System Requirement");
  });

  it("shows 'None' for a custom field without a value", () => {
    expect(attributeText(source, undefined)).toBe("None");
    expect(attributeText(source, "")).toBe("None");
    expect(attributeText(risk, null)).toBe("None");
  });

  it("shows text fields as they are and select fields by option name", () => {
    expect(attributeText(source, "Customer workshop")).toBe("Customer workshop");
    expect(attributeText(risk, 11)).toBe("Low");
    expect(attributeText(risk, "10")).toBe("High");
  });

  it("says so when a select field's option no longer exists", () => {
    expect(attributeText(risk, 99)).toBe(ATTRIBUTE_OPTION_MISSING);
  });

  it("names the components, or 'None'", () => {
    const project = [
      { id: "1", name: "Firmware" },
      { id: "2", name: "Alarms" },
    ];
    expect(componentNames({ components: [{ atlassian_component_id: "2" }] }, project)).toBe("Alarms");
    expect(componentNames({ components: [] }, project)).toBe("None");
  });

  it("opens a linked Confluence page on the site's wiki by its content id", () => {
    expect(contentUrl("https://acme.atlassian.net", "98304")).toBe("https://acme.atlassian.net/wiki/pages/viewpage.action?pageId=98304");
    expect(contentUrl("https://acme.atlassian.net/", "98304")).toBe("https://acme.atlassian.net/wiki/pages/viewpage.action?pageId=98304");
  });
});
