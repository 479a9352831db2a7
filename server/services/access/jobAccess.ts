import { flattenErrorBody } from "../../../common/errors.js";
import { AppError } from "../../errors.js";
import { JobFailure } from "../../jobs/defineJob.js";
import type { Actor } from "../context.js";
import { type AccessDeps, type ProjectAccessLevel, requireProjectAccess } from "./projectAccess.js";

/**
 * A job works for the person who started it, so it checks their access again when it runs: one
 * revoked since (Jira says no) fails at once with the reason, as no retry can help; Jira
 * unreachable (503) throws on, and the queue tries the job again.
 */
export async function requireProjectAccessForJob(deps: AccessDeps, actor: Actor, projectId: number, level: ProjectAccessLevel): Promise<void> {
  try {
    await requireProjectAccess(deps, actor, projectId, level);
  } catch (error) {
    if (error instanceof AppError && error.status !== 503) throw new JobFailure(flattenErrorBody(error.body));
    throw error;
  }
}
