import type { FolderItem } from "../../api/items.js";
import type { RequirementDetail } from "../../api/requirements.js";
import type { MoveTarget } from "../../components/MoveDialog/moveTargets.js";

/** The one dialog the requirements screen shows at a time. */
export type RequirementsDialog =
  | { kind: "createRequirement"; parentFolderId: number | null }
  | { kind: "editRequirement"; detail: RequirementDetail }
  | { kind: "moveRequirements"; requirementIds: number[]; currentFolderId: MoveTarget | undefined }
  | { kind: "deleteRequirements"; requirementIds: number[] }
  | { kind: "createFolder"; parentFolderId: number | null }
  | { kind: "editFolder"; folder: FolderItem }
  | { kind: "moveFolder"; folder: FolderItem }
  | { kind: "deleteFolder"; folder: FolderItem }
  | { kind: "import" }
  | { kind: "export" };
