import { z } from "zod";
import { BulkMoveSchema } from "../../../common/schemas/requirement.js";

/**
 * The move dialog's form (spec section 5): a target is required ('Top Level', null, is one) and
 * must pass the rule POST /api/requirement/move/bulk and PUT /api/folder/{id} check a target with.
 * The current folder is not offered: the folder picker disables it.
 */
export const moveFormSchema = z.object({
  target: z
    .number({ error: "Required" })
    .nullable()
    .refine((target) => BulkMoveSchema.shape.parent_folder_id.safeParse(target).success, "Must be a folder id or null"),
});

export type MoveFormValues = z.input<typeof moveFormSchema>;
export type MoveChoice = z.output<typeof moveFormSchema>;
