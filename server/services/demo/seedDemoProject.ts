import { insertFolder } from "../../db/folderStore.js";
import { projectHasRequirements } from "../../db/requirements/index.js";
import { listRequirementTypes } from "../../db/requirementTypeStore.js";
import { accessDepsOf, askJiraBeforeTransaction } from "../access/projectAccess.js";
import type { Actor, ServiceDeps } from "../context.js";
import { createRequirementIn } from "../requirements/createRequirement.js";
import { withRequirementWrite } from "../requirements/requirementWrite.js";
import { seedDefaultRequirementTypes } from "../requirementTypes/seedDefaultRequirementTypes.js";
import { DEMO_STORIES } from "./demoStories.js";

/** A Jira project of the site: its id and key, and its issues (id and key) for the links. */
export type DemoProject = { projectId: number; projectKey: string; issues: { id: string; key: string }[] };

/**
 * The first screen a newcomer sees: the project's own story (demoStories.ts), folders and
 * requirements of each default level linked to each other and to the project's issues. Does
 * nothing for a project without a story or one that already has requirements.
 */
export async function seedDemoProject(deps: ServiceDeps<"jobs" | "hostClient" | "access">, actor: Actor, demo: DemoProject): Promise<void> {
  const { tenantId, accountId } = actor;
  const story = DEMO_STORIES[demo.projectKey];
  if (!story) return;
  const issueIdByKey = new Map(demo.issues.map((issue) => [issue.key, issue.id]));
  // Jira is asked what the person may do before the transaction opens, and the writes' link checks
  // answer from that decision. Asked inside, the host client's read of the installation waits for a
  // connection the transaction holds (PGlite has one): the seed hung until the pool's acquire timeout.
  const access = await askJiraBeforeTransaction(accessDepsOf(deps), actor, [demo.projectId]);
  await deps.db.transaction(async (trx) => {
    const inTransaction = { ...deps, db: trx };
    if (await projectHasRequirements(trx, tenantId, demo.projectId)) return;
    await seedDefaultRequirementTypes(inTransaction, actor);
    const typeByLevel = new Map<number, number>();
    for (const type of await listRequirementTypes(trx, tenantId)) {
      if (!typeByLevel.has(type.level)) typeByLevel.set(type.level, type.requirement_type_id);
    }
    const folderIds = new Map<string, number>();
    for (const name of story.folders) {
      folderIds.set(
        name,
        await insertFolder(trx, tenantId, { projectId: demo.projectId, parentFolderId: null, name, createdBy: accountId }),
      );
    }
    const created = new Map<string, number>();
    for (const requirement of story.requirements) {
      const typeId = typeByLevel.get(requirement.level);
      if (typeId === undefined) continue;
      // Each in a write of its own, so a requirement linked to an earlier one gives that one its own revision.
      const input = {
        name: requirement.name,
        description: requirement.description,
        requirement_type_id: typeId,
        project: demo.projectId,
        parent_folder_id: requirement.folder ? (folderIds.get(requirement.folder) ?? null) : null,
        display_id: null,
        assigned_to: null,
        status: null,
        components: [],
        issues: requirement.issueKeys.flatMap((key) => issueIdByKey.get(key) ?? []),
        contents: [],
        requirements: requirement.links.flatMap((key) => {
          const id = created.get(key);
          return id === undefined ? [] : [id];
        }),
        attributes: {},
      };
      const requirementId = await withRequirementWrite(inTransaction, actor, (write) =>
        createRequirementIn(write, input, access, { notify: false }),
      );
      created.set(requirement.key, requirementId);
    }
  });
}
