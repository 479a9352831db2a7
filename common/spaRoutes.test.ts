import { describe, expect, it } from "vitest";
import { spaEntryOf } from "./spaRoutes.js";

describe("which page entry answers a route", () => {
  it("serves the light panel entry for the issue panel and its sign-in", () => {
    expect(spaEntryOf("/issue-view-requirements-right-panel")).toBe("panel");
    expect(spaEntryOf("/authenticate/issue-view-requirements-right-panel")).toBe("panel");
  });

  it("serves the main entry for every other screen and sign-in location", () => {
    for (const path of ["/requirements", "/traceability-matrix", "/baselines", "/configuration", "/missing-license"]) {
      expect(spaEntryOf(path)).toBe("index");
    }
    expect(spaEntryOf("/authenticate/configuration")).toBe("index");
    expect(spaEntryOf("/authenticate/anything-else")).toBe("index");
    expect(spaEntryOf("/requirements/")).toBe("index");
  });

  it("leaves other paths alone", () => {
    expect(spaEntryOf("/api/user")).toBeUndefined();
    expect(spaEntryOf("/")).toBeUndefined();
    expect(spaEntryOf("/authenticate")).toBeUndefined();
  });
});
