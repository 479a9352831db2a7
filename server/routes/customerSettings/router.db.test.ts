import request from "supertest";
import { appActor } from "../../services/context.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { bearer, createTenant, createTestApp, type TestContext } from "../../../test/helpers/app.js";
import { spacesToFilter } from "../../services/customerSettings/spacesToFilter.js";

let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestApp();
});
afterAll(() => ctx.destroy());

describe("customer settings API", () => {
  it("starts with both switches off and no space filter", async () => {
    const tenant = await createTenant(ctx.deps.db);
    const res = await request(ctx.app)
      .get("/api/customer/settings")
      .set("Authorization", await bearer(ctx, tenant));
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      comment_on_associated_issues: false,
      send_email_notification_to_assignee: false,
      confluence_spaces_to_filter: "",
    });
  });

  it("saves the settings, echoes the two switches and reads them back", async () => {
    const tenant = await createTenant(ctx.deps.db);
    const auth = await bearer(ctx, tenant);
    const saved = await request(ctx.app).patch("/api/customer/settings").set("Authorization", auth).send({
      comment_on_associated_issues: true,
      send_email_notification_to_assignee: true,
      confluence_spaces_to_filter: " DOCS, ENG ,,DOCS, ~jane ",
    });
    expect(saved.status).toBe(200);
    expect(saved.body).toEqual({ comment_on_associated_issues: true, send_email_notification_to_assignee: true });

    const read = await request(ctx.app).get("/api/customer/settings").set("Authorization", auth);
    expect(read.body).toEqual({
      comment_on_associated_issues: true,
      send_email_notification_to_assignee: true,
      confluence_spaces_to_filter: "DOCS,ENG,~jane",
    });
    expect(await spacesToFilter(ctx.deps, appActor(tenant.tenantId))).toEqual(["DOCS", "ENG", "~jane"]);
  });

  it("changes only what is sent", async () => {
    const tenant = await createTenant(ctx.deps.db);
    const auth = await bearer(ctx, tenant);
    await request(ctx.app)
      .patch("/api/customer/settings")
      .set("Authorization", auth)
      .send({ comment_on_associated_issues: true, confluence_spaces_to_filter: "DOCS" });
    const saved = await request(ctx.app)
      .patch("/api/customer/settings")
      .set("Authorization", auth)
      .send({ send_email_notification_to_assignee: true });
    expect(saved.body).toEqual({ comment_on_associated_issues: true, send_email_notification_to_assignee: true });
    expect(await spacesToFilter(ctx.deps, appActor(tenant.tenantId))).toEqual(["DOCS"]);
  });

  it("refuses values of the wrong kind and space keys not separated by commas", async () => {
    const tenant = await createTenant(ctx.deps.db);
    const auth = await bearer(ctx, tenant);
    const wrong = await request(ctx.app)
      .patch("/api/customer/settings")
      .set("Authorization", auth)
      .send({ comment_on_associated_issues: "yes" });
    expect(wrong.status).toBe(400);
    expect(wrong.body).toEqual({ comment_on_associated_issues: ["Must be true or false"] });

    const spaces = await request(ctx.app)
      .patch("/api/customer/settings")
      .set("Authorization", auth)
      .send({ confluence_spaces_to_filter: "DOCS ENG" });
    expect(spaces.status).toBe(400);
    expect(spaces.body).toEqual({ confluence_spaces_to_filter: ["Separate space keys with commas"] });

    const read = await request(ctx.app).get("/api/customer/settings").set("Authorization", auth);
    expect(read.body.comment_on_associated_issues).toBe(false);
  });

  it("keeps each site's settings to itself", async () => {
    const first = await createTenant(ctx.deps.db);
    const second = await createTenant(ctx.deps.db);
    await request(ctx.app)
      .patch("/api/customer/settings")
      .set("Authorization", await bearer(ctx, first))
      .send({ comment_on_associated_issues: true, confluence_spaces_to_filter: "SECRET" });

    const read = await request(ctx.app)
      .get("/api/customer/settings")
      .set("Authorization", await bearer(ctx, second));
    expect(read.body).toEqual({
      comment_on_associated_issues: false,
      send_email_notification_to_assignee: false,
      confluence_spaces_to_filter: "",
    });
    expect(await spacesToFilter(ctx.deps, appActor(second.tenantId))).toEqual([]);
  });
});
