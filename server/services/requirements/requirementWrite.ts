import type { RequirementDetail, RevisionAction } from "../../../common/schemas/requirement.js";
import { lockFolderTree, lockFolderTreeOf } from "../../db/folderStore.js";
import type { Tx } from "../../db/knex.js";
import { lockRequirements } from "../../db/requirementLiteStore.js";
import type { RequirementRow } from "../../db/requirementRows.js";
import { bumpRevisions } from "../../db/requirementWriteStore.js";
import { insertRevisions } from "../../db/revisionStore.js";
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
  /** As the write found it (read under its lock); undefined for a requirement the write created. */
  before?: RequirementDetail;
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
  /** States a change; a requirement changed twice in one write gets one revision with both changes' fields. */
  record(change: RequirementChange): void;
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
    await finishWrite(inTransaction, actor, [...changes.values()], before);
    return result;
  });
}

async function finishWrite(
  deps: WriteDeps,
  actor: Actor,
  changes: RequirementChange[],
  before: Map<number, RequirementDetail>,
): Promise<void> {
  if (changes.length === 0) return;
  // A created requirement starts at revision 1; every other one moves on by one.
  await bumpRevisions(
    deps.db,
    actor.tenantId,
    changes.filter((change) => change.action !== "created").map((change) => change.requirementId),
  );
  const after = new Map(
    (
      await loadRequirementDetails(
        deps,
        actor,
        changes.map((change) => change.requirementId),
        { includeDeleted: true },
      )
    ).map((detail) => [detail.requirement_id, detail]),
  );
  const written = changes.flatMap((change) => {
    const detail = after.get(change.requirementId);
    if (!detail) return [];
    const changedFields = change.action === "created" ? filledFields(detail) : change.changedFields;
    return [{ ...change, changedFields, before: before.get(change.requirementId), after: detail }];
  });
  await onRequirementsWritten(deps, actor, written);
}

/**
 * The step every requirement write ends with, given each written requirement's changed fields and
 * its state before and after: its revision (changed fields and snapshot), then its notifications.
 * A rule that follows a change of certain fields (issue 34's suspect links: a change of name,
 * description, type or custom fields marks the requirement's links suspect) belongs here.
 */
async function onRequirementsWritten(deps: WriteDeps, actor: Actor, written: WrittenRequirement[]): Promise<void> {
  await insertRevisions(
    deps.db,
    actor.tenantId,
    written.map(({ requirementId, action, changedFields, before, after }) => ({
      requirementId,
      revision: after.revision,
      accountId: actor.accountId,
      action,
      changedFields,
      // A deleted requirement's last revision freezes it as the delete found it, links included.
      snapshot: snapshotOf(action === "deleted" && before ? { ...before, revision: after.revision } : after, action === "deleted"),
    })),
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
