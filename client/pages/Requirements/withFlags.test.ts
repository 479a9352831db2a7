import { describe, expect, it } from "vitest";
import { requirementsNoun, withFlags } from "./withFlags.js";

function recordingFlags() {
  const shown: string[] = [];
  return {
    shown,
    flags: {
      success: (message: string) => shown.push(`success: ${message}`),
      error: (message: string, title = "Error") => shown.push(`${title}: ${message}`),
    },
  };
}

const messages = { success: "Folder created successfully", failure: "There was a problem saving your folder" };

describe("change toasts", () => {
  it("shows the success message when the change works", async () => {
    const { flags, shown } = recordingFlags();
    await expect(withFlags(flags, async () => 7, messages)).resolves.toBe(7);
    expect(shown).toEqual(["success: Folder created successfully"]);
  });

  it("shows the server's text under the title Error and keeps the failure", async () => {
    const { flags, shown } = recordingFlags();
    const stale = new Error("This requirement was changed by someone else. Reload it and try again.");
    await expect(withFlags(flags, () => Promise.reject(stale), messages)).rejects.toBe(stale);
    expect(shown).toEqual([
      "Error: There was a problem saving your folder: This requirement was changed by someone else. Reload it and try again.",
    ]);
  });

  it("words requirements in the singular for one", () => {
    expect(`${requirementsNoun(1)} deleted successfully`).toBe("Requirement deleted successfully");
    expect(`${requirementsNoun(3)} deleted successfully`).toBe("Requirements deleted successfully");
  });
});
