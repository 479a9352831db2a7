import { describe, expect, it } from "vitest";
import { flattenErrorBody } from "./errors.js";

describe("flattening a server error for a toast", () => {
  it("uses a Result field as is", () => {
    expect(flattenErrorBody({ Result: "Requirement type is in use" })).toBe("Requirement type is in use");
  });

  it("shows each field followed by a dash and its messages", () => {
    expect(flattenErrorBody({ name: ["Required"], prefix: ["Required", "Too long"] })).toBe("name - Required, prefix - Required, Too long");
  });

  it("flattens one level of nesting", () => {
    expect(flattenErrorBody({ requirement_type: { name: ["Required"] } })).toBe("requirement_type - name - Required");
  });

  it("passes plain text through", () => {
    expect(flattenErrorBody("Bad gateway")).toBe("Bad gateway");
  });
});
