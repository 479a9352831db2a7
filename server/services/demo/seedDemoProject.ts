import { insertFolder } from "../../db/folderStore.js";
import { projectHasRequirements } from "../../db/requirementListStore.js";
import { listRequirementTypes } from "../../db/requirementTypeStore.js";
import type { Actor, ServiceDeps } from "../context.js";
import { createRequirementIn } from "../requirements/createRequirement.js";
import { seedDefaultRequirementTypes } from "../requirementTypes/seedDefaultRequirementTypes.js";

export type DemoProject = { projectId: number; issueIds: string[] };

type DemoRequirement = { key: string; folder: string | null; level: number; name: string; description: string; links: string[] };

const FOLDERS = ["Business goals", "System design", "Software"] as const;

/** A small braking-system story: one chain per level, each linked to the level above. */
const REQUIREMENTS: DemoRequirement[] = [
  { key: "b1", folder: "Business goals", level: 1, name: "Reduce rear-end collisions", description: "Cut rear-end collisions of our fleet by 30% within two years.", links: [] },
  { key: "b2", folder: "Business goals", level: 1, name: "Meet the 2027 safety regulation", description: "Be certifiable under the 2027 active-safety rules.", links: [] },
  { key: "s1", folder: "Business goals", level: 2, name: "Drivers are warned before a collision", description: "Fleet managers want an audible and visible warning at least 2 s before impact.", links: ["b1"] },
  { key: "s2", folder: null, level: 2, name: "Automatic braking can be audited", description: "Every automatic braking event is logged for the regulator.", links: ["b2"] },
  { key: "y1", folder: "System design", level: 3, name: "Forward collision warning", description: "The system detects obstacles up to 150 m ahead and warns the driver.", links: ["s1"] },
  { key: "y2", folder: "System design", level: 3, name: "Emergency braking event log", description: "Each braking intervention is stored with speed, distance and time.", links: ["s2"] },
  { key: "w1", folder: "Software", level: 4, name: "Radar obstacle tracker", description: "Tracks up to 32 objects at 20 Hz from the front radar.", links: ["y1"] },
  { key: "w2", folder: "Software", level: 4, name: "Event log writer", description: "Writes braking events to non-volatile storage within 50 ms.", links: ["y2"] },
];

/**
 * The first screen a newcomer sees: a few folders and requirements of each default level, linked
 * to each other and to the given issues. Does nothing when the project already has requirements.
 */
export async function seedDemoProject(deps: ServiceDeps, actor: Actor, demo: DemoProject): Promise<void> {
  const { tenantId, accountId } = actor;
  await deps.db.transaction(async (trx) => {
    const inTransaction = { ...deps, db: trx };
    if (await projectHasRequirements(trx, tenantId, demo.projectId)) return;
    await seedDefaultRequirementTypes(inTransaction, actor);
    const typeByLevel = new Map<number, number>();
    for (const type of await listRequirementTypes(trx, tenantId)) {
      if (!typeByLevel.has(type.level)) typeByLevel.set(type.level, type.requirement_type_id);
    }
    const folderIds = new Map<string, number>();
    for (const name of FOLDERS) {
      folderIds.set(
        name,
        await insertFolder(trx, tenantId, { projectId: demo.projectId, parentFolderId: null, name, createdBy: accountId }),
      );
    }
    const created = new Map<string, number>();
    for (const [index, requirement] of REQUIREMENTS.entries()) {
      const typeId = typeByLevel.get(requirement.level);
      if (typeId === undefined) continue;
      const issue = demo.issueIds.length > 0 ? demo.issueIds[index % demo.issueIds.length] : undefined;
      const detail = await createRequirementIn(inTransaction, actor, {
        name: requirement.name,
        description: requirement.description,
        requirement_type_id: typeId,
        project: demo.projectId,
        parent_folder_id: requirement.folder ? (folderIds.get(requirement.folder) ?? null) : null,
        display_id: null,
        assigned_to: null,
        status: null,
        components: [],
        issues: issue ? [issue] : [],
        contents: [],
        requirements: requirement.links.flatMap((key) => {
          const id = created.get(key);
          return id === undefined ? [] : [id];
        }),
        attributes: {},
      });
      created.set(requirement.key, detail.requirement_id);
    }
  });
}
