import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { RequirementSnapshot } from "../../../common/schemas/requirement.js";
import { snapshotFromStored, storedSnapshotOf } from "./revisions.js";

const id = fc.integer({ min: 1, max: 2 ** 31 });
const text = fc.string({ maxLength: 20 });
const hostId = fc.stringMatching(/^\d{1,6}$/);
const few = <T>(item: fc.Arbitrary<T>) => fc.array(item, { maxLength: 3 });

const snapshots: fc.Arbitrary<RequirementSnapshot> = fc
  .record({
    requirement_id: id,
    type: fc.record({
      requirement_type_id: id,
      name: text,
      prefix: fc.stringMatching(/^[A-Z]{2,5}$/),
      level: fc.integer({ min: 1, max: 9 }),
    }),
    display_id: fc.option(text, { nil: null }),
    name: text,
    description: text,
    assigned_to: fc.option(fc.record({ account_id: text }), { nil: null }),
    components: few(fc.record({ atlassian_component_id: hostId })),
    issues: few(fc.record({ atlassian_issue_id: hostId })),
    status: fc.option(fc.record({ atlassian_status_id: text }), { nil: null }),
    contents: few(fc.record({ atlassian_content_id: hostId })),
    linked_requirements: fc.array(
      fc.record({
        requirement_id: id,
        prefix: text,
        display_id: fc.option(text, { nil: null }),
        name: text,
        project: id,
        requirement_type_id: id,
        level: id,
      }),
      { maxLength: 2 },
    ),
    attachments: fc.array(fc.record({ original_file_name: text, uuid_file_name: text }), { maxLength: 2 }),
    attributes: fc.dictionary(fc.stringMatching(/^\d{1,4}$/), text, { maxKeys: 3 }),
    parent_folder_id: fc.option(id, { nil: null }),
    project: fc.integer({ min: 0, max: 99999 }),
    deleted: fc.boolean(),
  })
  .map(({ type, ...rest }) => ({ ...rest, prefix: type.prefix, requirement_type_id: type.requirement_type_id, requirement_type: type }));

describe("a revision's stored snapshot", () => {
  it("reads back as the snapshot that was saved, whatever its lists, flags and nulls", () => {
    fc.assert(
      fc.property(snapshots, (snapshot) => {
        const stored = JSON.parse(JSON.stringify(storedSnapshotOf(snapshot)));
        expect(snapshotFromStored(stored, snapshot.requirement_id)).toEqual(snapshot);
        expect(snapshotFromStored(JSON.stringify(snapshot), snapshot.requirement_id)).toEqual(snapshot);
      }),
    );
  });

  it("leaves out what the revision row and the frozen type already say, and the lists and flag at their empty value", () => {
    const stored = storedSnapshotOf({
      requirement_id: 7,
      prefix: "SYS",
      display_id: null,
      name: "Stop the pump",
      description: "",
      assigned_to: null,
      components: [{ atlassian_component_id: "10100" }],
      issues: [],
      status: null,
      contents: [],
      requirement_type_id: 3,
      requirement_type: { requirement_type_id: 3, name: "System", prefix: "SYS", level: 3 },
      linked_requirements: [],
      attachments: [],
      attributes: {},
      parent_folder_id: null,
      project: 10000,
      deleted: false,
    });
    expect(Object.keys(stored).sort()).toEqual(
      [
        "assigned_to",
        "components",
        "description",
        "display_id",
        "name",
        "parent_folder_id",
        "project",
        "requirement_type",
        "status",
      ].sort(),
    );
  });
});
