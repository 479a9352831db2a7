import { zodResolver } from "@hookform/resolvers/zod";
import { describe, expect, it } from "vitest";
import { BulkMoveSchema } from "../../../common/schemas/requirement.js";
import { type MoveFormValues, moveFormSchema } from "./moveForm.js";

/** What the dialog's resolver makes of the form: the values it submits, or the messages at its fields. */
const resolve = async (values: Partial<MoveFormValues>) => {
  const { values: choice, errors } = await zodResolver(moveFormSchema)(values as MoveFormValues, undefined, {
    fields: {},
    shouldUseNativeValidation: false,
  });
  return { choice, messages: Object.fromEntries(Object.entries(errors).map(([field, error]) => [field, error?.message])) };
};

describe("the move dialog's form", () => {
  it("needs a target before Move is enabled", async () => {
    expect((await resolve({})).messages).toEqual({ target: "Required" });
    expect((await resolve({ target: undefined })).messages).toEqual({ target: "Required" });
  });

  it("takes a folder or 'Top Level' (null), and sends it as the move's parent_folder_id", async () => {
    for (const target of [7, null]) {
      const { choice, messages } = await resolve({ target });
      expect(messages).toEqual({});
      expect(choice).toEqual({ target });
      expect(BulkMoveSchema.parse({ parent_folder_id: choice.target, requirements: [3, 4] })).toEqual({
        parent_folder_id: target,
        requirements: [3, 4],
      });
    }
  });
});
