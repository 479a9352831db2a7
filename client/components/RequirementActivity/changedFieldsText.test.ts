import { describe, expect, it } from "vitest";
import { changedFieldsText } from "./changedFieldsText.js";

describe("the Activity list's changed fields", () => {
  it("separates the field names with a comma and a space", () => {
    expect(changedFieldsText("name,description")).toBe("name, description");
    expect(changedFieldsText("name")).toBe("name");
  });

  it("shows None when a revision names no field", () => {
    expect(changedFieldsText("")).toBe("None");
  });
});
