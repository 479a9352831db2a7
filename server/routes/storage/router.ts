import { Router } from "express";
import type { ApiRouteDoc } from "../../../common/apiDoc.js";
import {
  SignGetRequestSchema,
  SignGetResponseSchema,
  SignPutRequestSchema,
  SignPutResponseSchema,
} from "../../../common/schemas/storage.js";
import type { AppDeps } from "../../deps.js";
import { authOf } from "../../middleware/auth.js";
import { named, requireAccess } from "../../middleware/requireAccess.js";
import { parse } from "../../middleware/validate.js";
import { signDownload } from "../../services/storage/signDownload.js";
import { signUpload } from "../../services/storage/signUpload.js";
import { handle } from "../handle.js";

export const docs: ApiRouteDoc[] = [
  {
    method: "post",
    path: "/api/sign-s3-put",
    summary:
      "Sign an upload (attachment, or a .csv, .xlsx, .reqif or .reqifz for import); then PUT the file to presigned_url with its content type (success: 200 or 204). Attachments may be at most 25 MB (26214400 bytes).",
    body: SignPutRequestSchema,
    response: SignPutResponseSchema,
  },
  {
    method: "post",
    path: "/api/sign-s3-get",
    summary: "Sign a download of one of the site's uploaded files; 404 for files of other sites or unknown ones",
    body: SignGetRequestSchema,
    response: SignGetResponseSchema,
  },
];

export function router(deps: AppDeps): Router {
  const api = Router();

  api.post(
    "/api/sign-s3-put",
    handle(async (req, res) => {
      const auth = authOf(req);
      const input = parse(SignPutRequestSchema, req.body);
      res.json(await signUpload(deps, auth, input));
    }),
  );

  api.post(
    "/api/sign-s3-get",
    requireAccess(deps, "browse", named.attachmentInBody("uuid_file_name")),
    handle(async (req, res) => {
      const actor = authOf(req);
      const input = parse(SignGetRequestSchema, req.body);
      res.json(await signDownload(deps, actor, input.uuid_file_name));
    }),
  );

  return api;
}
