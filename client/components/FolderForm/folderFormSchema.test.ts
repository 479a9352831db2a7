import { describe, expect, it } from "vitest";
import { folderFormSchema } from "./folderFormSchema.js";

const messages = (name: string) => {
  const result = folderFormSchema.safeParse({ name });
  return result.success ? [] : result.error.issues.map((issue) => issue.message);
};

describe("the folder form", () => {
  it("accepts a plain name and trims it", () => {
    expect(folderFormSchema.parse({ name: "  Design inputs " })).toEqual({ name: "Design inputs" });
  });

  it("requires a name", () => {
    expect(messages("")).toEqual(["Required"]);
    expect(messages("   ")).toEqual(["Required"]);
  });

  it("accepts 100 characters and refuses 101", () => {
    expect(messages("a".repeat(100))).toEqual([]);
    expect(messages("a".repeat(101))).toEqual(["Enter no more than 100 characters"]);
  });

  it("refuses a backslash", () => {
    expect(messages("Design\\Inputs")).toEqual(["The name cannot contain a backslash (\\)"]);
  });
});
