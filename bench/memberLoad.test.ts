import { describe, expect, it } from "vitest";
import { mostCallsInAMinute } from "./memberLoad.js";

describe("the Jira calls row of the API load cases", () => {
  it("counts the most calls one account made within any 60 seconds", () => {
    const asked = new Map([
      ["site-a noor", [0, 61_000, 122_000]],
      ["site-b noor", [5_000, 30_000, 66_000]],
    ]);
    expect(mostCallsInAMinute(asked)).toBe(2);
  });

  it("finds one call a minute where an account was asked once each time its answer expired", () => {
    expect(mostCallsInAMinute(new Map([["site-a noor", [0, 60_000, 120_500]]]))).toBe(1);
    expect(mostCallsInAMinute(new Map())).toBe(0);
  });
});
