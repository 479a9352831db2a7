import express from "express";
import type { Db } from "../../server/db/knex.js";
import { bearer, testConfig } from "../../test/helpers/app.js";
import { PROBE } from "../../test/helpers/realisticTenant.js";
import {
  MEMBER_ACCOUNT_ID,
  MEMBER_NOTE,
  MEMBER_PROJECT_ID,
  measureRounds,
  ROUNDS,
  rateRows,
  spreadRequests,
  withMemberLoad,
} from "../memberLoad.js";
import { type CapturedStatement, capturedStatement, getJson, listen } from "../statementEndpoint.js";
import type { BenchCase, BenchResult } from "../types.js";

/** Issues of the project the member browses (realisticTenant.ts: 10000 to 10999), each linked to two of its requirements. */
const ISSUE_IDS = Array.from({ length: 100 }, (_, i) => String(10_000 + i * 10));

const panelPath = (issueId: string) => `/api/requirement?atlassian_project_id=${MEMBER_PROJECT_ID}&atlassian_issue_id=${issueId}`;

/**
 * A bare Express endpoint: no token, no validation, no access check; the statement our list sends
 * for one issue of one site, run with another site's and issue's ids in their places.
 */
function bareApp(db: Db, statement: CapturedStatement, probe: { tenantId: string; issueId: string }): express.Express {
  const app = express();
  app.get("/site/:tenantId/issue/:issueId", async (req, res) => {
    const bindings = statement.bindings.map((value) =>
      value === probe.tenantId ? req.params.tenantId : value === probe.issueId ? req.params.issueId : value,
    );
    const result = await db.raw(statement.sql, bindings as never[]);
    res.json({ requirements: result.rows });
  });
  return app;
}

/**
 * The issue panel's load under load, as people open issues: GET /api/requirement of the issue's
 * project and issue (what the panel asks first; its Global Requirements list is the same request
 * for project 0), 50 connections on our endpoint (token, validation, the access check, logging; in
 * production mode) against a bare endpoint running the very statement ours sends, over one site of
 * 100,000 requirements and over 20 sites of 5,000 at once. The requests come from a member who is
 * no Jira administrator, for issues of the project she may browse; her access is asked of the
 * emulated Jira, and a row counts those calls (goal: one per account per minute at most). ROUNDS
 * alternating rounds; ratio = our req/s over the bare endpoint's, p99 beside the bare one's.
 */
const issuePanelLoad: BenchCase = {
  name: "issue-panel-load",
  run: (context) =>
    withMemberLoad(context, "issue-panel-load", testConfig(), async ({ db, ctx, spreads }) => {
      const ours = await listen(ctx.app);
      const [probeSite] = spreads[0]?.sites ?? [];
      if (!probeSite) throw new Error("No site to probe");
      const probe = { tenantId: probeSite.tenantId, issueId: PROBE.issueId };
      const call = async () =>
        getJson(`${ours.url}${panelPath(probe.issueId)}`, { authorization: await bearer(ctx, probeSite, MEMBER_ACCOUNT_ID) });
      const statement = await capturedStatement(db, call, (sql) => sql.includes("requirement_issue_links"));
      const bare = await listen(bareApp(db, statement, probe));
      try {
        const results: BenchResult[] = [];
        for (const spread of spreads) {
          const loads = await measureRounds(db, [
            {
              name: "ours",
              url: ours.url,
              requests: await spreadRequests(ctx, spread.sites, ISSUE_IDS, (_tenant, id) => panelPath(id), true),
            },
            {
              name: "bare",
              url: bare.url,
              requests: await spreadRequests(ctx, spread.sites, ISSUE_IDS, (tenant, id) => `/site/${tenant.tenantId}/issue/${id}`, false),
            },
          ]);
          const note = `${spread.name}, median of ${ROUNDS} alternating rounds, ${MEMBER_NOTE}`;
          results.push(...rateRows(`issue-panel-load${spread.suffix}`, context.db, loads, "ours", "bare", note));
        }
        return results;
      } finally {
        await bare.close();
        await ours.close();
      }
    }),
};

export default issuePanelLoad;
