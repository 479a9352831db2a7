import { describe, expect, it } from "vitest";
import { formatDate } from "./date.js";

describe("showing a date", () => {
  it("writes the month, the ordinal day, the year and the 12-hour time", () => {
    expect(formatDate("2024-03-01T14:05:09")).toBe("March 1st 2024, 2:05:09 pm");
    expect(formatDate("2023-11-22T00:30:00")).toBe("November 22nd 2023, 12:30:00 am");
    expect(formatDate(new Date(2025, 0, 13, 9, 0, 7))).toBe("January 13th 2025, 9:00:07 am");
  });

  it("shows the instant a server timestamp names in the local time zone", () => {
    expect(formatDate("2024-06-15T12:00:00.000Z")).toMatch(/^June 15th 2024, \d{1,2}:00:00 (am|pm)$/);
  });

  it("shows None when there is no date", () => {
    expect(formatDate(undefined)).toBe("None");
    expect(formatDate(null)).toBe("None");
    expect(formatDate("not a date")).toBe("None");
  });
});
