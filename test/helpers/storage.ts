import request from "supertest";
import { expect } from "vitest";
import type { TestContext } from "./app.js";

/** Presigned URLs carry the add-on's public base URL; Supertest needs the path and query. */
export const localPath = (ctx: TestContext, url: string) => url.slice(ctx.deps.config.baseUrl.length);

/** What the SPA does to attach a file: sign-s3-put, then PUT the bytes to the local disk's presigned URL. */
export async function uploadAttachment(ctx: TestContext, authorization: string, name: string, type: string, content: Buffer | string) {
  const signed = await request(ctx.app)
    .post("/api/sign-s3-put")
    .set("Authorization", authorization)
    .send({ operation: "attachment", original_file_name: name, file_type: type });
  expect(signed.status).toBe(200);
  const put = await request(ctx.app).put(localPath(ctx, signed.body.presigned_url)).set("Content-Type", type).send(content);
  return { uuid: signed.body.uuid_file_name as string, url: signed.body.presigned_url as string, put };
}
