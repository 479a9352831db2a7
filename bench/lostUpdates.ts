/** An edit the API accepted (200): the requirement, the revision the answer carried and the description it saved. */
export type AcceptedEdit = { site: string; requirementId: number; revision: number; description: string };

/**
 * An edit sent whose answer never came: the load stopped while it was in flight. The server may
 * have applied it, so the requirement may end at its description, a revision past every accepted edit.
 */
export type UnansweredEdit = { site: string; requirementId: number; description: string };

/** A requirement as read after the run: its state, and the revisions its Activity list holds for updates. */
export type FinalRequirement = { revision: number; description: string | null; updateRevisions: number[] };

export type LostUpdate = { site: string; requirementId: number; revision: number; reason: string };

const keyOf = (site: string, requirementId: number) => `${site}\u0000${requirementId}`;

/**
 * Accepted edits the final state or the revision history does not account for. Two accepted edits
 * answered with the same revision means one overwrote the other unseen (the revision check let both
 * through); the requirement must end as its newest accepted edit left it, at that revision (nothing
 * else edits during the run), or past it as an unanswered edit of the bench left it; and every
 * accepted edit's revision must be in its Activity list.
 */
export function findLostUpdates(
  accepted: AcceptedEdit[],
  unanswered: UnansweredEdit[],
  finals: ReadonlyMap<string, FinalRequirement>,
): LostUpdate[] {
  const byRequirement = new Map<string, AcceptedEdit[]>();
  for (const edit of accepted) {
    const key = keyOf(edit.site, edit.requirementId);
    byRequirement.set(key, [...(byRequirement.get(key) ?? []), edit]);
  }
  const lost: LostUpdate[] = [];
  for (const [key, edits] of byRequirement) {
    const sorted = [...edits].sort((a, b) => a.revision - b.revision);
    const final = finals.get(key);
    const newest = sorted[sorted.length - 1] as AcceptedEdit;
    const lose = (edit: AcceptedEdit, reason: string) =>
      lost.push({ site: edit.site, requirementId: edit.requirementId, revision: edit.revision, reason });
    if (!final) {
      lose(newest, "the requirement could not be read after the run");
      continue;
    }
    sorted.forEach((edit, index) => {
      if (index > 0 && sorted[index - 1]?.revision === edit.revision)
        lose(edit, "another accepted edit was answered with the same revision");
      if (!final.updateRevisions.includes(edit.revision)) lose(edit, "its revision is not in the Activity list");
    });
    const endedByUnanswered = unanswered.some(
      (edit) => edit.site === newest.site && edit.requirementId === newest.requirementId && edit.description === final.description,
    );
    if (final.revision < newest.revision || (final.revision === newest.revision && final.description !== newest.description)) {
      lose(newest, `the requirement ended at revision ${final.revision} with another description than its newest accepted edit`);
    } else if (final.revision > newest.revision && !endedByUnanswered) {
      lose(newest, `the requirement ended at revision ${final.revision} with a description no edit of the run sent`);
    }
  }
  return lost;
}

/** The key `finals` is looked up by. */
export const requirementKey = keyOf;
