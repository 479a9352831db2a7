import { z } from "zod";
import { FOLDER_NAME_MAX, folderNameSchema } from "../../../common/schemas/folder.js";

export const FOLDER_NAME_MAX_LENGTH = FOLDER_NAME_MAX;

/** Spec section 5, with the server's own rule: name required, at most 100 characters, no backslash. */
export const folderFormSchema = z.object({ name: folderNameSchema });

export type FolderFormValues = z.input<typeof folderFormSchema>;
