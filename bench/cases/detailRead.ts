import express from "express";
import type { Config } from "../../server/config.js";
import type { Db } from "../../server/db/knex.js";
import { testConfig } from "../../test/helpers/app.js";
import { median, round } from "../measure.js";
import { MEMBER_NOTE, measureRounds, ROUNDS, rateRows, spreadRequests, withMemberLoad } from "../memberLoad.js";
import { listen } from "../statementEndpoint.js";
import type { BenchCase, BenchResult } from "../types.js";

/** Level-1 requirements of the project the member browses (project 10000: requirements 1 to 1,000), each with a link, two issues and a field value. */
const DETAIL_IDS = Array.from({ length: 50 }, (_, i) => 5 + i * 20);

/**
 * The same rows as GET /api/requirement/{id} (its suspect-link marks too, since the detail shows
 * them), by the plain SQL a developer would write first, sent as a named (prepared) statement as
 * ours is: PostgreSQL parses it once per connection.
 */
const BARE_DETAIL_SQL = `
SELECT r.requirement_id, r.project_id, r.parent_folder_id, r.requirement_type_id, t.name AS type_name, t.prefix, t.level,
       r.display_id, r.name, r.description, r.status_id, r.assigned_to, r.created_by, r.created_at, r.revision,
  (SELECT json_agg(c.atlassian_component_id) FROM requirement_components c WHERE c.tenant_id = r.tenant_id AND c.requirement_id = r.requirement_id) AS components,
  (SELECT json_agg(i.atlassian_issue_id) FROM requirement_issue_links i WHERE i.tenant_id = r.tenant_id AND i.requirement_id = r.requirement_id) AS issues,
  (SELECT json_agg(p.atlassian_content_id) FROM requirement_content_links p WHERE p.tenant_id = r.tenant_id AND p.requirement_id = r.requirement_id) AS contents,
  (SELECT json_object_agg(v.attribute_id, v.value) FROM requirement_attribute_values v WHERE v.tenant_id = r.tenant_id AND v.requirement_id = r.requirement_id) AS attributes,
  (SELECT json_agg(json_build_object('original_file_name', a.original_file_name, 'uuid_file_name', a.uuid_file_name))
     FROM attachments a WHERE a.tenant_id = r.tenant_id AND a.requirement_id = r.requirement_id AND a.operation = 'attachment') AS attachments,
  (SELECT json_agg(json_build_object('requirement_id', o.requirement_id, 'project_id', o.project_id, 'requirement_type_id', o.requirement_type_id,
                                     'display_id', o.display_id, 'name', o.name, 'prefix', ot.prefix, 'level', ot.level))
     FROM requirement_links l
     JOIN requirements o ON o.tenant_id = l.tenant_id
      AND o.requirement_id = CASE WHEN l.requirement_id = r.requirement_id THEN l.linked_requirement_id ELSE l.requirement_id END
     JOIN requirement_types ot ON ot.tenant_id = o.tenant_id AND ot.requirement_type_id = o.requirement_type_id
    WHERE l.tenant_id = r.tenant_id AND (l.requirement_id = r.requirement_id OR l.linked_requirement_id = r.requirement_id)
      AND o.deleted_at IS NULL) AS linked,
  (SELECT json_agg(m) FROM (
     SELECT 'requirement' AS link_type, s.linked_requirement_id::text AS target_id, s.since_revision, s.changed_by, s.changed_at
       FROM suspect_requirement_links s WHERE s.tenant_id = r.tenant_id AND s.requirement_id = r.requirement_id
     UNION ALL
     SELECT 'requirement', s.requirement_id::text, s.since_revision, s.changed_by, s.changed_at
       FROM suspect_requirement_links s WHERE s.tenant_id = r.tenant_id AND s.linked_requirement_id = r.requirement_id
     UNION ALL
     SELECT 'issue', s.atlassian_issue_id, s.since_revision, s.changed_by, s.changed_at
       FROM suspect_issue_links s WHERE s.tenant_id = r.tenant_id AND s.requirement_id = r.requirement_id
     UNION ALL
     SELECT 'content', s.atlassian_content_id, s.since_revision, s.changed_by, s.changed_at
       FROM suspect_content_links s WHERE s.tenant_id = r.tenant_id AND s.requirement_id = r.requirement_id) m) AS suspect_links
FROM requirements r JOIN requirement_types t ON t.tenant_id = r.tenant_id AND t.requirement_type_id = r.requirement_type_id
WHERE r.tenant_id = ? AND r.requirement_id = ? AND r.deleted_at IS NULL`;

/** A bare Express endpoint: no token, no validation, no logging; the detail's reads in plain SQL, prepared. */
function bareApp(db: Db): express.Express {
  const app = express();
  app.get("/site/:tenantId/requirement/:id", async (req, res) => {
    try {
      const result = await db.raw(BARE_DETAIL_SQL, [req.params.tenantId, Number(req.params.id)]).options({ name: "bare_detail" });
      const row = result.rows[0];
      if (row) res.json(row);
      else res.status(404).end();
    } catch {
      res.status(500).end();
    }
  });
  return app;
}

/** The floor of the harness: an Express endpoint that answers a constant, reading nothing. */
function constantApp(): express.Express {
  const app = express();
  app.get("/site/:tenantId/requirement/:id", (req, res) => {
    res.json({ requirement_id: Number(req.params.id) });
  });
  return app;
}

/**
 * Requirement detail under load, as users open requirements: 50 connections for 10 s on our
 * endpoint (token, validation, logging, the access check, service; in production mode), batched per
 * site and unbatched, against a bare Express + pg endpoint sending the same reads as a prepared
 * statement, over one site of 100,000 requirements and over 20 sites of 5,000 at once (production
 * spreads its load over sites, so per-site batching helps less). The requests come from a member
 * who is no Jira administrator, for requirements of the project she may browse; her access is asked
 * of the emulated Jira (memberLoad.ts), and a row counts those calls (goal: one per account per
 * minute at most). ROUNDS alternating rounds of every endpoint; each figure is the median of its
 * rounds. Ratio = our req/s over the bare endpoint's (goal: at least 0.8 for both spreads); p99
 * next to the bare endpoint's and to the floor of an endpoint that reads nothing under the same load.
 */
const detailRead: BenchCase = {
  name: "detail-read",
  run(context) {
    // Read by the service on every request: the runs switch batching on and off between them.
    const config: Config = { ...testConfig(), detailReadBatching: true };
    return withMemberLoad(context, "detail-read", config, async ({ db, ctx, spreads }) => {
      const servers = {
        ours: await listen(ctx.app),
        bare: await listen(bareApp(db)),
        constant: await listen(constantApp()),
      };
      try {
        const results: BenchResult[] = [];
        for (const spread of spreads) {
          const ours = await spreadRequests(ctx, spread.sites, DETAIL_IDS, (_tenant, id) => `/api/requirement/${id}`, true);
          const bare = await spreadRequests(
            ctx,
            spread.sites,
            DETAIL_IDS,
            (tenant, id) => `/site/${tenant.tenantId}/requirement/${id}`,
            false,
          );
          const loads = await measureRounds(db, [
            { name: "batched", url: servers.ours.url, requests: ours, before: () => (config.detailReadBatching = true) },
            { name: "unbatched", url: servers.ours.url, requests: ours, before: () => (config.detailReadBatching = false) },
            { name: "bare", url: servers.bare.url, requests: bare },
            { name: "constant", url: servers.constant.url, requests: bare },
          ]);
          const note = `${spread.name}, median of ${ROUNDS} alternating rounds, ${MEMBER_NOTE}`;
          results.push(
            ...rateRows(`detail-read${spread.suffix}`, context.db, loads, "batched", "bare", note),
            ...rateRows(`detail-read${spread.suffix}-unbatched`, context.db, loads, "unbatched", "bare", note),
          );
          const p99 = (name: string) => median((loads.get(name) ?? []).map((load) => load.p99Ms));
          results.push({
            case: `detail-read${spread.suffix}-p99-floor`,
            db: context.db,
            ours: p99("batched"),
            baseline: p99("constant"),
            unit: "ms",
            ratio: round(p99("batched") / p99("constant")),
            note,
          });
        }
        return results;
      } finally {
        for (const server of Object.values(servers)) await server.close();
      }
    });
  },
};

export default detailRead;
