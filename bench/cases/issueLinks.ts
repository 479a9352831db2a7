import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import type { HostRequester } from "../../client/api/jira/hostData.js";
import { type JiraIssue, lookupIssues, searchIssuesPage } from "../../client/api/jira/issues.js";
import { issuePickerJql } from "../../client/api/jira/paging.js";
import { startEmulator } from "../../emulator/server.js";
import { seedUsers } from "../../emulator/seed/users.js";
import { findRequirementDetails } from "../../server/db/requirements/index.js";
import { createTenant, insertRequirementRow } from "../../test/helpers/app.js";
import { addJiraLatency, JIRA_LATENCY_NOTE } from "../emulatedJira.js";
import { createTestDatabase } from "../../test/helpers/db.js";
import { medianMs, round } from "../measure.js";
import type { BenchCase, BenchResult } from "../types.js";

const PUMP_ID = 10000;
const EXTRA_ISSUES = 50_000;
const LINKED_ISSUES = 500;

/**
 * What AP.request does for the SPA in the emulated Jira: the host's REST API over HTTP as the
 * signed-in user (the emulator's session cookie), counting the requests it makes.
 */
function emulatorHost(baseUrl: string): HostRequester & { requests: number } {
  const cookie = `emulator_user=${encodeURIComponent(seedUsers[0]?.accountId ?? "")}`;
  const host = {
    requests: 0,
    async request<T>(options: { url: string; type?: string; data?: string; contentType?: string }): Promise<T> {
      host.requests++;
      const res = await fetch(`${baseUrl}${options.url}`, {
        method: options.type ?? "GET",
        headers: { cookie, ...(options.contentType ? { "content-type": options.contentType } : {}) },
        body: options.data,
      });
      if (!res.ok) throw new Error(`${options.type ?? "GET"} ${options.url}: the host answered ${res.status}`);
      return (await res.json()) as T;
    },
  };
  return host;
}

/** Every id of the project, from the id-only search (5000 a page), so links point at real issues. */
async function projectIssueIds(host: HostRequester): Promise<string[]> {
  const ids: string[] = [];
  let nextPageToken: string | undefined;
  do {
    const page = await host.request<{ issues: { id: string }[]; nextPageToken?: string }>({
      url: "/rest/api/3/search/jql",
      type: "POST",
      contentType: "application/json",
      data: JSON.stringify({ jql: `project = ${PUMP_ID} ORDER BY key ASC`, fields: ["id"], maxResults: 5000, nextPageToken }),
    });
    ids.push(...page.issues.map((issue) => issue.id));
    nextPageToken = page.nextPageToken;
  } while (nextPageToken);
  return ids;
}

/** What a user types into the picker, one search per prefix (the debounce may save some; this is the worst case). */
function keystrokes(word: string): string[] {
  return Array.from({ length: word.length }, (_, i) => word.slice(0, i + 1));
}

/**
 * Against the emulated Jira holding a 50,000-issue project, over real HTTP, each call answered
 * JIRA_LATENCY_MS late (the host-side rows say so):
 * - Linked Issues of a requirement linked to 500 issues: the spec's lookups (50 ids a search, 10
 *   in flight) against one GET per issue, in time and in requests;
 * - the issue picker: one search page (100 issues, JQL `text ~`) per keystroke, against a single
 *   issue GET, the cheapest round trip to the same host;
 * - the link read itself (the requirement's detail, which carries them) against a bare SELECT of the same ids.
 */
const issueLinks: BenchCase = {
  name: "issue-links",
  async run(context) {
    const results: BenchResult[] = [];
    const { db, destroy } = await createTestDatabase({ postgresUrl: context.databaseUrl });
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "rmcloud-bench-jira-"));
    const emulator = await startEmulator({
      port: 0,
      addonUrl: "http://127.0.0.1:9",
      dataDir,
      seed: { extraIssues: { PUMP: EXTRA_ISSUES } },
      installOnStart: false,
      log: () => {},
    });
    try {
      const host = emulatorHost(emulator.url);
      const allIds = await projectIssueIds(host);
      await addJiraLatency(emulator.url);
      const step = Math.floor(allIds.length / LINKED_ISSUES);
      const issueIds = Array.from({ length: LINKED_ISSUES }, (_, i) => allIds[i * step] as string);

      const tenant = await createTenant(db, "bench-links");
      const requirementId = await insertRequirementRow(db, tenant.tenantId, "Linked to 500 issues");
      await db("requirement_issue_links").insert(
        issueIds.map((atlassian_issue_id) => ({ tenant_id: tenant.tenantId, requirement_id: requirementId, atlassian_issue_id })),
      );
      // Ours: the requirement's detail, which carries its linked issue ids; bare: those ids alone, aggregated the same way.
      const ours = await medianMs(() => findRequirementDetails(db, tenant.tenantId, [requirementId]), { iterations: 30 });
      const bare = await medianMs(
        () =>
          db.raw(
            "SELECT json_agg(atlassian_issue_id ORDER BY atlassian_issue_id) AS issues FROM requirement_issue_links WHERE tenant_id = ? AND requirement_id = ?",
            [tenant.tenantId, requirementId],
          ),
        { iterations: 30 },
      );
      results.push({
        case: "linked-issue-ids-500",
        db: context.db,
        ours: round(ours),
        baseline: round(bare),
        unit: "ms",
        ratio: round(ours / bare),
      });

      // The host side does not depend on our database: measured once, on the first run.
      if (context.db === "pglite") {
        host.requests = 0;
        const found = await lookupIssues(host, issueIds);
        if (found.size !== LINKED_ISSUES) throw new Error(`the lookups found ${found.size} of ${LINKED_ISSUES} issues`);
        const pagedRequests = host.requests;
        const paged = await medianMs(() => lookupIssues(host, issueIds), { iterations: 5, warmup: 1 });
        const oneByOne = await medianMs(
          () => Promise.all(issueIds.map((id) => host.request({ url: `/rest/api/3/issue/${id}?fields=summary,issuetype`, type: "GET" }))),
          { iterations: 5, warmup: 1 },
        );

        const sample = await host.request<JiraIssue>({ url: `/rest/api/3/issue/${issueIds[7]}?fields=summary`, type: "GET" });
        const word = sample.fields.summary.split(/\W+/).find((w) => w.length >= 5) ?? "pump";
        const searches = ["", ...keystrokes(word.toLowerCase()), sample.key];
        let searchIndex = 0;
        const perSearchPage = await medianMs(
          () => searchIssuesPage(host, issuePickerJql(PUMP_ID, searches[searchIndex++ % searches.length] ?? "")),
          { iterations: searches.length * 2, warmup: 2 },
        );
        const singleGet = await medianMs(() => host.request({ url: `/rest/api/3/issue/${issueIds[7]}?fields=summary`, type: "GET" }), {
          iterations: 20,
          warmup: 2,
        });

        results.push(
          {
            case: "linked-issues-lookup-500-of-50k",
            db: "none",
            ours: round(paged),
            baseline: round(oneByOne),
            unit: "ms",
            ratio: round(paged / oneByOne),
            note: JIRA_LATENCY_NOTE,
          },
          {
            case: "linked-issues-lookup-requests",
            db: "none",
            ours: pagedRequests,
            baseline: LINKED_ISSUES,
            unit: "requests",
            ratio: round(pagedRequests / LINKED_ISSUES),
            note: JIRA_LATENCY_NOTE,
          },
          {
            case: "issue-picker-search-page-of-50k",
            db: "none",
            ours: round(perSearchPage),
            baseline: round(singleGet),
            unit: "ms",
            ratio: round(perSearchPage / singleGet),
            note: JIRA_LATENCY_NOTE,
          },
        );
      }
    } finally {
      await emulator.stop();
      await destroy();
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
    return results;
  },
};

export default issueLinks;
