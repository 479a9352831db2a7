import { describe, expect, it } from "vitest";
import { projectOptions } from "../ProjectSelect/projectOptions.js";
import { TABS, tabIndexOf } from "./tabs.js";

describe("the top navigation", () => {
  it("has the tabs Requirements, Traceability Matrix and Baselines, in that order", () => {
    expect(TABS.map((entry) => entry.label)).toEqual(["Requirements", "Traceability Matrix", "Baselines"]);
  });

  it("keeps the Baselines tab selected on the comparison page", () => {
    expect(tabIndexOf("requirements")).toBe(0);
    expect(tabIndexOf("traceability")).toBe(1);
    expect(tabIndexOf("baselines")).toBe(2);
    expect(tabIndexOf("comparison")).toBe(2);
  });

  it("offers a disabled prompt, then Global Requirements, then the projects", () => {
    const options = projectOptions([
      { id: 0, key: "", name: "Global Requirements" },
      { id: 10000, key: "DEMO", name: "Demo" },
    ]);
    expect(options).toEqual([
      { label: "Select a project", value: undefined, isDisabled: true },
      { label: "Global Requirements", value: 0 },
      { label: "Demo", value: 10000 },
    ]);
  });
});
