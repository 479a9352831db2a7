import autocannon from "autocannon";
import type { AcceptedEdit, UnansweredEdit } from "./lostUpdates.js";
import type { EditTarget, KindResult, LoadKind, MixedLoadResult, PlannedRequest } from "./mixedLoad.js";

/**
 * The load generator of `npm run bench:load` (forked by mixedLoad.ts): one autocannon instance per
 * kind of request, all at once, each with its own latency histogram. Answers a MixedLoadResult over IPC.
 */
type Context = { target?: EditTarget; name?: string; revision?: number; description?: string };

const accepted: AcceptedEdit[] = [];
/** Saves sent and not yet answered, by their description: those still here when the load stops were in flight. */
const unanswered = new Map<string, UnansweredEdit>();
let saved = 0;

const countsRefusal =
  (tally: { withoutRetryAfter: number }) => (status: number, _body: string, _context: unknown, headers?: Record<string, unknown>) => {
    if (status === 429 && !Object.keys(headers ?? {}).some((name) => name.toLowerCase() === "retry-after")) tally.withoutRetryAfter++;
  };

function plannedRequests(planned: PlannedRequest[], tally: { withoutRetryAfter: number }): autocannon.Request[] {
  let next = 0;
  return [
    {
      setupRequest: (request) => {
        const { method, path, headers, body } = planned[next++ % planned.length] as PlannedRequest;
        return {
          ...request,
          method,
          path,
          headers: { ...headers, ...(body === undefined ? {} : { "content-type": "application/json" }) },
          body: body === undefined ? undefined : JSON.stringify(body),
        };
      },
      onResponse: countsRefusal(tally),
    },
  ];
}

/** Read a requirement, then save a new description with the revision read: both API processes edit the same few. */
function editRequests(targets: EditTarget[], tally: { withoutRetryAfter: number }): autocannon.Request[] {
  return [
    {
      // At random, so that now and then both processes read the same requirement before either saves.
      setupRequest: (request, context: Context) => {
        const target = targets[Math.floor(Math.random() * targets.length)] as EditTarget;
        context.target = target;
        return { ...request, method: "GET", path: `/api/requirement/${target.requirementId}`, headers: target.headers };
      },
      onResponse: (status, body, context: Context, headers) => {
        countsRefusal(tally)(status, body, context, headers);
        if (status !== 200) return;
        const detail = JSON.parse(body) as { name: string; revision: number };
        context.name = detail.name;
        context.revision = detail.revision;
      },
    },
    {
      // A read that failed leaves nothing to save: autocannon then starts the pair over.
      setupRequest: (request, context: Context) => {
        if (!context.target || context.revision === undefined) return undefined as unknown as autocannon.Request;
        const description = `Edited under load ${process.pid}-${++saved}`;
        context.description = description;
        unanswered.set(description, { site: context.target.site, requirementId: context.target.requirementId, description });
        return {
          ...request,
          method: "PUT",
          path: `/api/requirement/${context.target.requirementId}`,
          headers: { ...context.target.headers, "content-type": "application/json" },
          body: JSON.stringify({ name: context.name, description, revision: context.revision }),
        };
      },
      onResponse: (status, body, context: Context, headers) => {
        countsRefusal(tally)(status, body, context, headers);
        unanswered.delete(context.description ?? "");
        if (status !== 200 || !context.target) return;
        const answer = JSON.parse(body) as { revision: number; description: string };
        accepted.push({
          site: context.target.site,
          requirementId: context.target.requirementId,
          revision: answer.revision,
          description: answer.description,
        });
      },
    },
  ];
}

function runKind(kind: LoadKind): Promise<KindResult> {
  const tally = { withoutRetryAfter: 0 };
  return new Promise((resolve, reject) => {
    autocannon(
      {
        // autocannon spreads the connections over a list of URLs (its types know one).
        url: kind.urls as unknown as string,
        connections: kind.connections,
        duration: kind.durationSeconds,
        ...(kind.overallRate === undefined ? {} : { overallRate: kind.overallRate }),
        timeout: 60,
        requests: "edits" in kind ? editRequests(kind.edits, tally) : plannedRequests(kind.requests, tally),
      },
      (error, result) => {
        if (error) return reject(error);
        resolve({
          kind: kind.kind,
          requests: result.requests.total,
          requestsPerSecond: result.requests.average,
          p50Ms: result.latency.p50,
          p99Ms: result.latency.p99,
          statuses: Object.fromEntries(Object.entries(result.statusCodeStats ?? {}).map(([status, stats]) => [status, stats.count ?? 0])),
          failures: result.errors + result.timeouts,
          refusedWithoutRetryAfter: tally.withoutRetryAfter,
        });
      },
    );
  });
}

process.once("message", async (kinds: LoadKind[]) => {
  const answer: MixedLoadResult = { kinds: await Promise.all(kinds.map(runKind)), accepted, unanswered: [...unanswered.values()] };
  process.send?.(answer, () => process.exit(0));
});
