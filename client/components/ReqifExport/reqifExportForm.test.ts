import { describe, expect, it } from "vitest";
import { ReqifExportRequestSchema } from "../../../common/schemas/reqif.js";
import { resolveForm } from "../../../test/helpers/formResolver.js";
import { type ReqifExportFormValues, reqifExportFormSchema, reqifExportRequest } from "./reqifExportForm.js";

const chosen: ReqifExportFormValues = { scope: "project", folder_id: 7, baseline_id: 3, include_attachments: false };

const resolve = (values: Partial<ReqifExportFormValues>) => resolveForm(reqifExportFormSchema, { ...chosen, ...values });

describe("the ReqIF export dialog's form", () => {
  it("asks for the folder or the baseline its scope needs", async () => {
    expect((await resolve({ scope: "folder", folder_id: null })).messages).toEqual({ folder_id: "Choose a folder" });
    expect((await resolve({ scope: "baseline", baseline_id: null })).messages).toEqual({ baseline_id: "Choose a baseline" });
    expect((await resolve({ scope: "project", folder_id: null, baseline_id: null })).messages).toEqual({});
  });

  it("sends only the chosen scope's folder or baseline, as POST /api/requirement/export/reqif's fields", async () => {
    const request = async (values: Partial<ReqifExportFormValues>) => reqifExportRequest((await resolve(values)).values, 10000);
    expect(await request({ scope: "project" })).toEqual({
      atlassian_project_id: 10000,
      folder_id: null,
      baseline_id: null,
      include_attachments: false,
    });
    expect(await request({ scope: "folder", include_attachments: true })).toMatchObject({
      folder_id: 7,
      baseline_id: null,
      include_attachments: true,
    });
    const baseline = await request({ scope: "baseline" });
    expect(baseline).toMatchObject({ folder_id: null, baseline_id: 3 });
    expect(ReqifExportRequestSchema.parse(baseline)).toEqual({
      atlassian_project_id: 10000,
      folder_id: null,
      baseline_id: 3,
      include_attachments: false,
    });
  });
});
