import type { RequirementDetail, RevisionAction } from "../../../common/schemas/requirement.js";
import { lockFolderTree, lockFolderTreeOf } from "../../db/folderStore.js";
import type { Tx } from "../../db/knex.js";
import { bumpRevisions, insertRevisions, lockRequirements, type RequirementRow } from "../../db/requirements/index.js";
import { markLinksSuspect, type SuspectCause } from "../../db/suspectLinkStore.js";
import { batches } from "../batches.js";
import type { Actor, ServiceDeps } from "../context.js";
import { notifyRequirementsSaved } from "../../jobs/requirementSavedJob.js";
import { eventStateOf, filledFields, loadRequirementDetails, snapshotOf } from "./requirementViews.js";

/** What the services called inside a write get: the app's dependencies, the transaction as their database. */
export type WriteDeps = Omit<ServiceDeps<"jobs">, "db"> & { db: Tx };

/** One requirement a write changed, as a use case states it. */
export type RequirementChange = {
  requirementId: number;
  action: RevisionAction;
  /**
   * The spec's field names, as the revision's changed_fields lists them. A created requirement's
   * are those it was created with a value for (filledFields), whatever is given here.
   */
  changedFields: string[];
  /** Its saved event goes to the notification job (Jira comments, assignee email). */
  notify?: boolean;
};

/** A requirement as a write leaves it, for the on-write step. */
export type WrittenRequirement = RequirementChange & {
  /** As the write found it (read under its lock, `readBefore`); undefined for a requirement the write created. */
  before?: RequirementDetail;
  /** As the write leaves it, at its new revision; a deleted one as the delete found it (links included). */
  after: RequirementDetail;
};

/** A use case's hold on one requirement write: its transaction, its locks, and what it says it changed. */
export type RequirementWrite = {
  readonly tx: Tx;
  readonly actor: Actor;
  readonly deps: WriteDeps;
  /**
   * Takes the locks in the documented order (docs/decisions.md, "Writes at the same moment"): the
   * project's folder tree shared, when the write puts requirements into a project's folders, then
   * the requirement rows in id order. Answers the live requirements locked.
   */
  lock(requirementIds: number[], into?: { folderId?: number | null; projectId?: number }): Promise<RequirementRow[]>;
  /** The requirements' details as they are now, kept as the `before` of their changes (call it after `lock`). */
  readBefore(requirementIds: number[]): Promise<RequirementDetail[]>;
  /**
   * States a change; a requirement changed twice in one write gets one revision with both changes'
   * fields. A requirement recorded as deleted is frozen from its `readBefore` state.
   */
  record(change: RequirementChange): void;
  /**
   * Writes the revisions of the changes recorded so far (and runs the on-write step), then forgets
   * them and their `before` states. The write does it at its end; a write over many requirements (a
   * folder's delete) does it after each batch, so what it holds stays flat.
   */
  flush(): Promise<void>;
  /**
   * The requirements as this write leaves them, read inside its transaction after writing what was
   * recorded: the answer to a save. Read after the commit, another save committed in between would
   * be answered instead (its revision and text), and the client would go on from a state it never saw
   * saved (the 10-minute load found two saves answered with the same revision).
   */
  readAfter(requirementIds: number[]): Promise<RequirementDetail[]>;
};

/**
 * The one way a requirement is written. Opens the transaction, hands the use case its `write`, and
 * on the way out (inside the same transaction) moves each changed requirement's revision on by one,
 * freezes its snapshot (snapshotOf, the one snapshot definition; the import's SQL is checked
 * against it by importRequirements.db.test.ts) and runs the on-write step. A use case states only
 * what changes. Inside another write's transaction (deps.db a Tx) it nests as a savepoint.
 */
export async function withRequirementWrite<T>(
  deps: ServiceDeps<"jobs">,
  actor: Actor,
  change: (write: RequirementWrite) => Promise<T>,
): Promise<T> {
  return deps.db.transaction(async (tx) => {
    const inTransaction: WriteDeps = { ...deps, db: tx };
    const changes = new Map<number, RequirementChange>();
    const before = new Map<number, RequirementDetail>();
    const write: RequirementWrite = {
      tx,
      actor,
      deps: inTransaction,
      lock: async (requirementIds, into = {}) => {
        if (into.projectId !== undefined) await lockFolderTree(tx, actor.tenantId, into.projectId, "contents");
        else if (into.folderId) await lockFolderTreeOf(tx, actor.tenantId, into.folderId, "contents");
        return lockRequirements(tx, actor.tenantId, requirementIds);
      },
      readBefore: async (requirementIds) => {
        const details = await loadRequirementDetails(inTransaction, actor, requirementIds);
        for (const detail of details) before.set(detail.requirement_id, detail);
        return details;
      },
      flush: async () => {
        const recorded = [...changes.values()];
        changes.clear();
        for (const batch of batches(recorded)) await finishWrite(inTransaction, actor, batch, before);
        before.clear();
      },
      readAfter: async (requirementIds) => {
        await write.flush();
        return loadRequirementDetails(inTransaction, actor, requirementIds);
      },
      record: (next) => {
        const earlier = changes.get(next.requirementId);
        changes.set(
          next.requirementId,
          earlier
            ? {
                ...earlier,
                changedFields: [...new Set([...earlier.changedFields, ...next.changedFields])],
                notify: earlier.notify || next.notify,
              }
            : next,
        );
      },
    };
    const result = await change(write);
    await write.flush();
    return result;
  });
}

/** One batch of changes: revisions moved on, the requirements read as the write leaves them, the on-write step. */
async function finishWrite(
  deps: WriteDeps,
  actor: Actor,
  changes: RequirementChange[],
  before: Map<number, RequirementDetail>,
): Promise<void> {
  // A created requirement starts at revision 1; every other one moves on by one.
  const revisions = await bumpRevisions(
    deps.db,
    actor.tenantId,
    changes.filter((change) => change.action !== "created").map((change) => change.requirementId),
  );
  // A deleted requirement is frozen as the delete found it (its `before`), links included.
  const after = new Map(
    (
      await loadRequirementDetails(
        deps,
        actor,
        changes.filter((change) => change.action !== "deleted").map((change) => change.requirementId),
        { includeDeleted: true },
      )
    ).map((detail) => [detail.requirement_id, detail]),
  );
  const written = changes.flatMap((change): WrittenRequirement[] => {
    const found = before.get(change.requirementId);
    const revision = revisions.get(change.requirementId);
    const detail =
      change.action === "deleted" ? found && revision !== undefined && { ...found, revision } : after.get(change.requirementId);
    if (!detail) return [];
    const changedFields = change.action === "created" ? filledFields(detail) : change.changedFields;
    return [{ ...change, changedFields, before: found, after: detail }];
  });
  await onRequirementsWritten(deps, actor, written);
}

/** Issue 34: a change of any of these makes the requirement's links suspect (status, assignee, components do not). */
const SUSPECTING_FIELDS = new Set(["name", "description", "requirement_type_id", "attributes"]);

/**
 * Links the change puts at risk: those the requirement had before the write and still has.
 * A link this same write made was made by someone who saw the new text.
 */
function suspectCauseOf({ requirementId, action, changedFields, before, after }: WrittenRequirement): SuspectCause | undefined {
  if (action !== "updated" || !before || !changedFields.some((field) => SUSPECTING_FIELDS.has(field))) return undefined;
  const kept = <T>(earlier: T[], now: T[]) => earlier.filter((value) => now.includes(value));
  return {
    requirementId,
    revision: after.revision,
    linkedRequirementIds: kept(
      before.linked_requirements_v2.map((linked) => linked.requirement_id),
      after.linked_requirements_v2.map((linked) => linked.requirement_id),
    ),
    issueIds: kept(
      before.issues.map((issue) => issue.atlassian_issue_id),
      after.issues.map((issue) => issue.atlassian_issue_id),
    ),
    contentIds: kept(
      before.contents.map((content) => content.atlassian_content_id),
      after.contents.map((content) => content.atlassian_content_id),
    ),
  };
}

/**
 * The step every requirement write ends with, given each written requirement's changed fields and
 * its state before and after: its revision (changed fields and snapshot), the suspect marks on
 * its links when its name, description, type or custom fields changed, then its notifications.
 */
async function onRequirementsWritten(deps: WriteDeps, actor: Actor, written: WrittenRequirement[]): Promise<void> {
  await insertRevisions(
    deps.db,
    actor.tenantId,
    written.map(({ requirementId, action, changedFields, after }) => ({
      requirement_id: requirementId,
      revision: after.revision,
      account_id: actor.accountId,
      action,
      changed_fields: changedFields,
      snapshot: snapshotOf(after, action === "deleted"),
    })),
  );
  await markLinksSuspect(
    deps.db,
    actor.tenantId,
    actor.accountId,
    written.map(suspectCauseOf).filter((cause) => cause !== undefined),
  );
  await notifyRequirementsSaved(
    deps,
    actor,
    written
      .filter((requirement) => requirement.notify)
      .map(({ requirementId, action, before, after }) => ({
        requirementId,
        revision: after.revision,
        before: before && eventStateOf(before),
        after: action === "deleted" ? undefined : eventStateOf(after),
      })),
  );
}
