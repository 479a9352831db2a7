import type { AuthContext } from "../connect/appToken.js";
import type { AppDeps } from "../deps.js";

/**
 * Every service starts `(deps, actor, ...)`: what it needs from the app, then who acts. The actor
 * carries the tenant (from the verified token), so no service can be called without one.
 * The database is always there; a service names the rest it relies on, required:
 * `ServiceDeps<"storage">`. Nothing else is handed in, so no service falls back on a missing one.
 */
export type ServiceDeps<Needs extends Exclude<keyof AppDeps, "db"> = never> = Pick<AppDeps, "db" | Needs>;
export type Actor = Pick<AuthContext, "tenantId" | "accountId">;

/**
 * The add-on acting on its own behalf (installation, Jira webhooks): no person's account is
 * behind it, so nothing it does may be recorded as someone's revision.
 */
export const appActor = (tenantId: string): Actor => ({ tenantId, accountId: "" });
