import { describe, expect, it } from "vitest";
import { BulkMoveSchema } from "../../../common/schemas/requirement.js";
import { resolveForm } from "../../../test/helpers/formResolver.js";
import { moveFormSchema } from "./moveForm.js";

describe("the move dialog's form", () => {
  it("needs a target before Move is enabled", async () => {
    expect((await resolveForm(moveFormSchema, {})).messages).toEqual({ target: "Required" });
    expect((await resolveForm(moveFormSchema, { target: undefined })).messages).toEqual({ target: "Required" });
  });

  it("takes a folder or 'Top Level' (null), and sends it as the move's parent_folder_id", async () => {
    for (const target of [7, null]) {
      const { values, messages } = await resolveForm(moveFormSchema, { target });
      expect(messages).toEqual({});
      expect(values).toEqual({ target });
      expect(BulkMoveSchema.parse({ parent_folder_id: values.target, requirements: [3, 4] })).toEqual({
        parent_folder_id: target,
        requirements: [3, 4],
      });
    }
  });
});
