import { describe, expect, it } from "vitest";
import { type AcceptedEdit, type FinalRequirement, findLostUpdates, requirementKey } from "./lostUpdates.js";

const edit = (revision: number, description: string, requirementId = 7): AcceptedEdit => ({
  site: "a",
  requirementId,
  revision,
  description,
});
const finals = (entries: [number, FinalRequirement][]) => new Map(entries.map(([id, final]) => [requirementKey("a", id), final]));

describe("the lost-update check after the load run", () => {
  it("finds nothing when every accepted edit is in the history and the newest is the final state", () => {
    const accepted = [edit(3, "second"), edit(2, "first")];
    expect(findLostUpdates(accepted, [], finals([[7, { revision: 3, description: "second", updateRevisions: [3, 2] }]]))).toEqual([]);
  });

  it("reports two edits accepted at the same revision: one overwrote the other", () => {
    const accepted = [edit(2, "from one process"), edit(2, "from the other")];
    const lost = findLostUpdates(accepted, [], finals([[7, { revision: 2, description: "from the other", updateRevisions: [2] }]]));
    expect(lost.map((update) => update.reason)).toContain("another accepted edit was answered with the same revision");
  });

  it("reports an accepted edit missing from the Activity list", () => {
    const lost = findLostUpdates(
      [edit(2, "first"), edit(3, "second")],
      [],
      finals([[7, { revision: 3, description: "second", updateRevisions: [3] }]]),
    );
    expect(lost).toEqual([{ site: "a", requirementId: 7, revision: 2, reason: "its revision is not in the Activity list" }]);
  });

  it("reports a final state other than the newest accepted edit", () => {
    const lost = findLostUpdates(
      [edit(2, "first"), edit(3, "second")],
      [],
      finals([[7, { revision: 3, description: "first", updateRevisions: [2, 3] }]]),
    );
    expect(lost).toHaveLength(1);
    expect(lost[0]?.revision).toBe(3);
  });

  it("accepts a final state past the newest accepted edit when an edit in flight at the end left it", () => {
    const final: FinalRequirement = { revision: 4, description: "in flight", updateRevisions: [3, 4] };
    const inFlight = [{ site: "a", requirementId: 7, description: "in flight" }];
    expect(findLostUpdates([edit(3, "answered")], inFlight, finals([[7, final]]))).toEqual([]);
    expect(findLostUpdates([edit(3, "answered")], [], finals([[7, final]]))).toHaveLength(1);
  });

  it("reports edits of a requirement that could not be read back", () => {
    expect(findLostUpdates([edit(2, "first", 8)], [], finals([]))).toHaveLength(1);
  });
});
