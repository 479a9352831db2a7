import { describe, expect, it } from "vitest";
import { unknownNames } from "./importHostLists.js";

describe("the names a file holds that the project lacks", () => {
  it("lists each unknown name once, as first written, matching the known ones trimmed and case-insensitively", () => {
    const known = [{ name: "Alarms" }, { name: "Dosing engine" }];
    expect(unknownNames(["Dosing", " alarms ", "Firmware", "dosing", "", "UI", "Logging", "DOSING ENGINE"], known)).toEqual([
      "Dosing",
      "Firmware",
      "UI",
      "Logging",
    ]);
  });
});
