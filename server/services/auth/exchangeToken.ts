import type { ExchangeTokenBody } from "../../../common/schemas/auth.js";
import type { Db } from "../../db/knex.js";
import { findInstallationByClientKey } from "../../db/installationStore.js";
import { forbidden, unauthorized } from "../../errors.js";
import { type AuthContext, SIGN_IN_LIFETIME_SECONDS, signAppToken } from "../../connect/appToken.js";
import { CONTEXT_QSH, type ConnectJwtFailure, unverifiedIssuer, verifyConnectJwt } from "../../connect/connectJwt.js";
import type { HostClient } from "../../connect/hostClient.js";
import { hostLicenseActive } from "../../connect/license.js";

const FAILURE_MESSAGES: Record<ConnectJwtFailure, string> = {
  malformed: "The Connect token is malformed",
  algorithm: "The Connect token is not signed with HS256",
  signature: "The Connect token's signature is invalid",
  expired: "The Connect token has expired",
  future: "The Connect token was issued in the future",
  qsh: "The Connect token was not issued for this page",
};

const SIGN_IN_ENDED = "The sign-in has ended: sign in through your Atlassian site again";

/** The page's license as the host passed it in the signed address: `lic=none` means the site has no valid license. */
function hasNoLicense(fullPath: string): boolean {
  const query = fullPath.includes("?") ? fullPath.slice(fullPath.indexOf("?") + 1) : "";
  return new URLSearchParams(query.split("#")[0]).getAll("lic").includes("none");
}

/**
 * The sign-in hand-off (spec section 2): a Connect JWT the host signed for the page at `fullPath`
 * becomes rmCloud's app token for that site's tenant and user. The license is what the host signed:
 * the page address's `lic` when the JWT's qsh covers that address (the iframe's JWT), else (a
 * context token, whose `context-qsh` covers no address) the host's license REST asked as the app.
 */
export async function exchangeConnectToken(
  db: Db,
  options: { appTokenSecret: string; baseUrl: string; hostClient: HostClient },
  connectJwt: string,
  body: ExchangeTokenBody,
): Promise<string> {
  const clientKey = unverifiedIssuer(connectJwt);
  if (!clientKey) throw unauthorized(FAILURE_MESSAGES.malformed);
  const installation = await findInstallationByClientKey(db, clientKey);
  if (!installation?.enabled || !installation.tenantActive) throw unauthorized("rmCloud is not installed on this site");
  const verified = verifyConnectJwt(connectJwt, installation.sharedSecret, {
    method: body.method,
    pathAndQuery: body.fullPath,
    baseUrl: options.baseUrl,
  });
  if (!verified.ok) throw unauthorized(FAILURE_MESSAGES[verified.reason]);
  if (!verified.claims.sub) throw unauthorized("Sign in to your Atlassian site to use rmCloud");
  const licensed =
    verified.claims.qsh === CONTEXT_QSH ? await hostLicenseActive(options.hostClient, installation) : !hasNoLicense(body.fullPath);
  if (!licensed) throw forbidden("license");
  return signAppToken(options.appTokenSecret, {
    tenantId: installation.tenantId,
    accountId: verified.claims.sub,
    product: body.product,
    clientKey,
  });
}

/** The sign-in hand-off as the app's dependencies make it: the exchange route's, and the page's while it is served (server/spa.ts). */
export function connectTokenExchange(deps: {
  db: Db;
  config: { appTokenSecret: string; baseUrl: string };
  hostClient: HostClient;
}): (connectJwt: string, body: ExchangeTokenBody) => Promise<string> {
  const options = { appTokenSecret: deps.config.appTokenSecret, baseUrl: deps.config.baseUrl, hostClient: deps.hostClient };
  return (connectJwt, body) => exchangeConnectToken(deps.db, options, connectJwt, body);
}

/**
 * A fresh token for a caller whose installation is still enabled (an uninstalled product stops
 * refreshing) and whose site's license the host still says is active. It keeps the sign-in's time
 * and expires by the sign-in's week at the latest (signAppToken), so a user removed from the site
 * cannot refresh forever.
 */
export async function refreshAppToken(
  db: Db,
  options: { appTokenSecret: string; hostClient: HostClient },
  auth: AuthContext,
): Promise<string> {
  // A token still valid by its own expiry (signed before the week's cap, or by other means) gets no new one past the sign-in's week.
  if (auth.signedInAt + SIGN_IN_LIFETIME_SECONDS <= Math.floor(Date.now() / 1000)) throw unauthorized(SIGN_IN_ENDED);
  const installation = await findInstallationByClientKey(db, auth.clientKey);
  if (!installation?.enabled || installation.tenantId !== auth.tenantId) throw unauthorized("rmCloud is not installed on this site");
  if (!(await hostLicenseActive(options.hostClient, installation))) throw forbidden("license");
  return signAppToken(options.appTokenSecret, auth);
}
