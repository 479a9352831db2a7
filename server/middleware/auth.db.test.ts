import { randomUUID } from "node:crypto";
import request from "supertest";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { bearer, createSignedInApp, createTenant, type SignedInApp } from "../../test/helpers/app.js";
import { recordUninstallation } from "../services/installations/installations.js";
import { INSTALLATION_CHECK_TTL_MS } from "./auth.js";

let signedIn: SignedInApp;
beforeAll(async () => {
  signedIn = await createSignedInApp();
});
afterAll(() => signedIn.ctx.destroy());
afterEach(() => {
  vi.useRealTimers();
});

const user = (auth: string) => request(signedIn.ctx.app).get("/api/user").set("Authorization", auth);

describe("the app token check", () => {
  it("refuses a site's tokens as soon as this process handles its uninstall", async () => {
    const tenant = await createTenant(signedIn.ctx.deps.db);
    const auth = await bearer(signedIn.ctx, tenant);
    expect((await user(auth)).status).toBe(200);
    await recordUninstallation(signedIn.ctx.deps.db, tenant.clientKey, { sha256: randomUUID(), expiresAt: new Date(Date.now() + 180_000) });
    const refused = await user(auth);
    expect(refused.status).toBe(401);
    expect(refused.body).toEqual({ Result: "rmCloud is not installed on this site" });
  });

  it("refuses a site's tokens within the documented bound when another replica handled the uninstall", async () => {
    const tenant = await createTenant(signedIn.ctx.deps.db);
    const auth = await bearer(signedIn.ctx, tenant);
    expect((await user(auth)).status).toBe(200);
    // Another replica's uninstall changes only the shared database, not this process's memory.
    await signedIn.ctx.deps.db("installations").where({ client_key: tenant.clientKey }).update({ enabled: false });
    vi.useFakeTimers({ toFake: ["Date"], now: Date.now() + INSTALLATION_CHECK_TTL_MS + 1 });
    expect((await user(auth)).status).toBe(401);
  });

  it("keeps refusing tampered and expired tokens however often they come", async () => {
    const auth = signedIn.auth;
    for (let i = 0; i < 3; i++) expect((await user(auth)).status).toBe(200);
    for (let i = 0; i < 3; i++) expect((await user(`${auth}x`)).status).toBe(401);
    vi.useFakeTimers({ toFake: ["Date"], now: Date.now() + 26 * 60 * 60 * 1000 });
    const expired = await user(auth);
    expect(expired.status).toBe(401);
    expect(expired.body).toEqual({ Result: "The token is invalid or has expired" });
  });
});
