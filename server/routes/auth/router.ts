import { Router } from "express";
import type { ApiRouteDoc } from "../../../common/apiDoc.js";
import { ExchangeTokenBodySchema, TokenResponseSchema, UserSchema } from "../../../common/schemas/auth.js";
import { connectTokenExchange, refreshAppToken } from "../../services/auth/exchangeToken.js";
import { findTenantSite } from "../../db/tenantStore.js";
import type { AppDeps } from "../../deps.js";
import { unauthorized } from "../../errors.js";
import { authOf } from "../../middleware/auth.js";
import { parse } from "../../middleware/validate.js";
import { handle } from "../handle.js";

export const docs: ApiRouteDoc[] = [
  {
    method: "post",
    path: "/api/exchange-token",
    summary:
      'Sign-in hand-off: `Authorization: JWT <Connect JWT>` of the page at fullPath becomes rmCloud\'s token (403 {"Result": "license"} when the site has no license: fullPath\'s lic=none when the JWT signs fullPath, else the host\'s license REST)',
    body: ExchangeTokenBodySchema,
    response: TokenResponseSchema,
    auth: false,
  },
  {
    method: "get",
    path: "/api/refresh",
    summary: 'A fresh token for the signed-in user (403 {"Result": "license"} once the host says the site\'s license is inactive)',
    response: TokenResponseSchema,
  },
  {
    method: "get",
    path: "/api/user",
    summary: "The signed-in user and the site",
    response: UserSchema,
  },
];

const CONNECT_JWT = /^JWT\s+(\S+)$/i;

/** Routes reached without an app token (the token exchange). */
export function publicRouter(deps: AppDeps): Router {
  const api = Router();
  const exchange = connectTokenExchange(deps);
  api.post(
    "/api/exchange-token",
    handle(async (req, res) => {
      const connectJwt = CONNECT_JWT.exec(req.get("authorization") ?? "")?.[1];
      if (!connectJwt) throw unauthorized("A Connect JWT is required: Authorization: JWT <token>");
      const body = parse(ExchangeTokenBodySchema, req.body ?? {});
      const token = await exchange(connectJwt, body);
      res.json({ token });
    }),
  );
  return api;
}

export function router(deps: AppDeps): Router {
  const api = Router();

  api.get(
    "/api/refresh",
    handle(async (req, res) => {
      res.json({
        token: await refreshAppToken(deps.db, { appTokenSecret: deps.config.appTokenSecret, hostClient: deps.hostClient }, authOf(req)),
      });
    }),
  );

  api.get(
    "/api/user",
    handle(async (req, res) => {
      const { tenantId, accountId } = authOf(req);
      const site = await findTenantSite(deps.db, tenantId);
      if (!site) throw unauthorized("rmCloud is not installed on this site");
      res.json({
        account_id: accountId,
        installed_on_confluence: site.installedOnConfluence,
        atlassian_base_url: site.siteUrl,
      });
    }),
  );

  return api;
}
