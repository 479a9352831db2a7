/**
 * Pure paging and de-duplication rules for host data (spec section 9), apart from the bridge so
 * they are unit-tested: issue search pages of 100, 10 requests in flight (50 a page in the
 * matrix), issue lookups 50 ids a request, project statuses de-duplicated by id.
 */
export const ISSUE_PAGE_SIZE = 100;
/** @public The traceability matrix (issue 15) pages issues 50 at a time. */
export const MATRIX_ISSUE_PAGE_SIZE = 50;
export const ISSUE_LOOKUP_PAGE_SIZE = 50;
export const MAX_PARALLEL_REQUESTS = 10;
export const ASSIGNEE_SEARCH_LIMIT = 1000;

export function chunk<T>(items: readonly T[], size: number): T[][] {
  if (size < 1) throw new RangeError("chunk size must be at least 1");
  const chunks: T[][] = [];
  for (let i = 0; i < items.length; i += size) chunks.push(items.slice(i, i + size));
  return chunks;
}

/** First occurrence wins, order kept. */
export function dedupeById<T extends { id: string | number }>(items: Iterable<T>): T[] {
  const seen = new Map<string, T>();
  for (const item of items) if (!seen.has(String(item.id))) seen.set(String(item.id), item);
  return [...seen.values()];
}

/** Runs `task` over `items` with at most `limit` in flight; results keep the order of `items`; the first failure rejects. */
export async function mapWithConcurrency<T, R>(
  items: readonly T[],
  limit: number,
  task: (item: T, index: number) => Promise<R>,
): Promise<R[]> {
  const results = new Array<R>(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const index = next++;
      results[index] = await task(items[index] as T, index);
    }
  };
  await Promise.all(Array.from({ length: Math.min(Math.max(limit, 1), items.length) }, worker));
  return results;
}

export type TokenPage<T> = { items: T[]; nextPageToken?: string | undefined; isLast?: boolean | undefined };

/**
 * Follows a token-paged search (`/rest/api/3/search/jql`) to its end. A page without a token,
 * or one that says it is the last, ends it; a repeated token ends it too rather than looping.
 */
export async function followPageTokens<T>(fetchPage: (nextPageToken: string | undefined) => Promise<TokenPage<T>>): Promise<T[]> {
  const all: T[] = [];
  const seenTokens = new Set<string>();
  let token: string | undefined;
  for (;;) {
    const page = await fetchPage(token);
    all.push(...page.items);
    if (page.isLast === true || !page.nextPageToken || seenTokens.has(page.nextPageToken)) return all;
    seenTokens.add(page.nextPageToken);
    token = page.nextPageToken;
  }
}

/** Jira issue ids are numeric: anything else would break the `id in (...)` JQL of a lookup. */
export function issueLookupJqls(issueIds: Iterable<string>, pageSize = ISSUE_LOOKUP_PAGE_SIZE): string[] {
  const ids = [...new Set([...issueIds].filter((id) => /^\d+$/.test(id)))];
  return chunk(ids, pageSize).map((page) => `id in (${page.join(",")}) ORDER BY key ASC`);
}

type StatusOfIssueType = { id: string; name: string; statusCategory?: { key?: string; name?: string } };

/**
 * `/rest/api/3/project/{id}/statuses` lists the statuses of every issue type's workflow; the same
 * status appears under many types. Spec section 4: the choices are those statuses, once each.
 */
export function projectStatusChoices<S extends StatusOfIssueType>(byIssueType: readonly { statuses?: readonly S[] }[]): S[] {
  return dedupeById(byIssueType.flatMap((issueType) => issueType.statuses ?? []));
}

/** JQL string literal for text typed by the user: quotes and backslashes escaped. */
export function jqlString(text: string): string {
  return `"${text.replace(/\\/g, "\\\\").replace(/"/g, '\\"')}"`;
}

/**
 * The picker's search: the project's issues (any project's for Global Requirements, id 0),
 * narrowed by the typed text. An issue key typed in full also matches by key.
 */
export function issuePickerJql(projectId: number, text: string): string {
  const clauses: string[] = [];
  if (projectId !== 0) clauses.push(`project = ${projectId}`);
  const term = text.trim();
  if (term) {
    const textClause = `text ~ ${jqlString(`${term}*`)}`;
    clauses.push(/^[A-Z][A-Z0-9_]+-\d+$/i.test(term) ? `(${textClause} OR key = ${jqlString(term.toUpperCase())})` : textClause);
  }
  return `${clauses.join(" AND ")} ORDER BY key DESC`.trim();
}
