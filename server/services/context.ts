import type { AuthContext } from "../connect/appToken.js";
import type { AppDeps } from "../deps.js";

/**
 * Every service starts `(deps, actor, ...)`: what it needs from the app, then who acts. The actor
 * carries the tenant (from the verified token), so no service can be called without one.
 */
export type ServiceDeps = Pick<AppDeps, "db"> & Partial<Omit<AppDeps, "db">>;
export type Actor = Pick<AuthContext, "tenantId" | "accountId">;
