/**
 * The JQL subset the add-on uses: project, issuetype, status, key, id, text/summary search,
 * AND/OR/NOT with parentheses, and ORDER BY. Anything else is a 400 as in Jira.
 */

export type JqlValue = string;
export type JqlClause =
  | { kind: "and" | "or"; left: JqlClause; right: JqlClause }
  | { kind: "not"; clause: JqlClause }
  | { kind: "compare"; field: string; op: "=" | "!=" | "~" | "!~" | "in" | "not in"; values: JqlValue[] };
export type JqlOrder = { field: string; direction: "asc" | "desc" };
export type JqlQuery = { where: JqlClause | null; orderBy: JqlOrder[] };

export class JqlError extends Error {}

type Token = { type: "word" | "string" | "op" | "lparen" | "rparen" | "comma"; text: string };

function tokenize(input: string): Token[] {
  const tokens: Token[] = [];
  let i = 0;
  while (i < input.length) {
    const ch = input.charAt(i);
    if (/\s/.test(ch)) {
      i++;
    } else if (ch === "(" || ch === ")" || ch === ",") {
      tokens.push({ type: ch === "(" ? "lparen" : ch === ")" ? "rparen" : "comma", text: ch });
      i++;
    } else if (ch === '"' || ch === "'") {
      let text = "";
      i++;
      while (i < input.length && input.charAt(i) !== ch) {
        if (input.charAt(i) === "\\" && i + 1 < input.length) i++;
        text += input.charAt(i);
        i++;
      }
      if (i >= input.length) throw new JqlError("Error in the JQL Query: unterminated string.");
      i++;
      tokens.push({ type: "string", text });
    } else if (/[=!~<>]/.test(ch)) {
      const two = input.slice(i, i + 2);
      const op = ["!=", "!~", ">=", "<="].includes(two) ? two : ch;
      tokens.push({ type: "op", text: op });
      i += op.length;
    } else {
      let text = "";
      while (i < input.length && /[^\s()=!~<>,"']/.test(input.charAt(i))) {
        text += input.charAt(i);
        i++;
      }
      tokens.push({ type: "word", text });
    }
  }
  return tokens;
}

const SUPPORTED_FIELDS = new Set([
  "project",
  "issuetype",
  "type",
  "status",
  "key",
  "issuekey",
  "id",
  "text",
  "summary",
  "statuscategory",
  "assignee",
  "parent",
  "component",
]);

export function parseJql(input: string): JqlQuery {
  const tokens = tokenize(input);
  let pos = 0;
  const peek = () => tokens[pos];
  const isWord = (t: Token | undefined, word: string) => t?.type === "word" && t.text.toLowerCase() === word;
  const next = () => {
    const token = tokens[pos++];
    if (!token) throw new JqlError("Error in the JQL Query: the query ended unexpectedly.");
    return token;
  };

  const value = (): string => {
    const token = next();
    if (token.type !== "word" && token.type !== "string")
      throw new JqlError(`Error in the JQL Query: expected a value but got '${token.text}'.`);
    return token.text;
  };

  const comparison = (): JqlClause => {
    const fieldToken = next();
    if (fieldToken.type !== "word" && fieldToken.type !== "string")
      throw new JqlError(`Error in the JQL Query: expected a field but got '${fieldToken.text}'.`);
    const field = fieldToken.text.toLowerCase();
    if (!SUPPORTED_FIELDS.has(field))
      throw new JqlError(`Field '${fieldToken.text}' does not exist or you do not have permission to view it.`);
    let op: "=" | "!=" | "~" | "!~" | "in" | "not in";
    const opToken = next();
    if (opToken.type === "op" && ["=", "!=", "~", "!~"].includes(opToken.text)) op = opToken.text as "=" | "!=" | "~" | "!~";
    else if (isWord(opToken, "in")) op = "in";
    else if (isWord(opToken, "not") && isWord(peek(), "in")) {
      next();
      op = "not in";
    } else throw new JqlError(`Error in the JQL Query: the operator '${opToken.text}' is not supported.`);
    if (op === "in" || op === "not in") {
      if (next().type !== "lparen") throw new JqlError("Error in the JQL Query: expected '(' after IN.");
      const values: string[] = [];
      if (peek()?.type !== "rparen") {
        values.push(value());
        while (peek()?.type === "comma") {
          next();
          values.push(value());
        }
      }
      if (next().type !== "rparen") throw new JqlError("Error in the JQL Query: expected ')'.");
      return { kind: "compare", field, op, values };
    }
    return { kind: "compare", field, op, values: [value()] };
  };

  const primary = (): JqlClause => {
    if (peek()?.type === "lparen") {
      next();
      const inner = orExpr();
      if (next().type !== "rparen") throw new JqlError("Error in the JQL Query: expected ')'.");
      return inner;
    }
    if (isWord(peek(), "not")) {
      next();
      return { kind: "not", clause: primary() };
    }
    return comparison();
  };
  const andExpr = (): JqlClause => {
    let left = primary();
    while (isWord(peek(), "and")) {
      next();
      left = { kind: "and", left, right: primary() };
    }
    return left;
  };
  const orExpr = (): JqlClause => {
    let left = andExpr();
    while (isWord(peek(), "or")) {
      next();
      left = { kind: "or", left, right: andExpr() };
    }
    return left;
  };

  const where = peek() && !isWord(peek(), "order") ? orExpr() : null;
  const orderBy: JqlOrder[] = [];
  if (isWord(peek(), "order")) {
    next();
    if (!isWord(next(), "by")) throw new JqlError("Error in the JQL Query: expected BY after ORDER.");
    do {
      if (peek()?.type === "comma") next();
      const field = next().text.toLowerCase();
      let direction: "asc" | "desc" = "asc";
      if (isWord(peek(), "asc") || isWord(peek(), "desc")) direction = next().text.toLowerCase() as "asc" | "desc";
      orderBy.push({ field, direction });
    } while (peek()?.type === "comma");
  }
  if (pos < tokens.length) throw new JqlError(`Error in the JQL Query: unexpected '${tokens[pos]?.text}'.`);
  return { where, orderBy };
}

/** What a clause can ask of an issue; the REST layer resolves names, keys and ids. */
export type JqlIssueView = {
  id: string;
  key: string;
  created: string;
  updated: string;
  summary: string;
  text: string;
  values: Record<string, string[]>;
};

const lowerCased = new WeakMap<string[], Set<string>>();

/** A clause's values, lower-cased once per query rather than once per issue (an `id in` of 50 ids over 50,000 issues). */
function lowerCasedValues(values: string[]): Set<string> {
  let set = lowerCased.get(values);
  if (!set) {
    set = new Set(values.map((v) => v.toLowerCase()));
    lowerCased.set(values, set);
  }
  return set;
}

function matches(clause: JqlClause, issue: JqlIssueView): boolean {
  switch (clause.kind) {
    case "and":
      return matches(clause.left, issue) && matches(clause.right, issue);
    case "or":
      return matches(clause.left, issue) || matches(clause.right, issue);
    case "not":
      return !matches(clause.clause, issue);
    case "compare": {
      if (clause.op === "~" || clause.op === "!~") {
        const haystack = (clause.field === "summary" ? issue.summary : issue.text).toLowerCase();
        const words = (clause.values[0] ?? "").toLowerCase().replace(/\*/g, "").split(/\s+/).filter(Boolean);
        const found = words.every((word) => haystack.includes(word));
        return clause.op === "~" ? found : !found;
      }
      const field = clause.field === "type" ? "issuetype" : clause.field === "issuekey" ? "key" : clause.field;
      const wanted = lowerCasedValues(clause.values);
      // id and key are on the view itself: an `id in` lookup never builds the other field values.
      const own = field === "id" ? [issue.id] : field === "key" ? [issue.key] : (issue.values[field] ?? []);
      const hit = own.some((v) => wanted.has(v.toLowerCase()));
      return clause.op === "=" || clause.op === "in" ? hit : !hit;
    }
  }
}

function keyNumber(key: string): number {
  return Number(key.split("-")[1] ?? 0);
}

/**
 * The ids a query is limited to, when its condition requires `id in (...)` (or `id = `), alone or
 * ANDed with anything: the search then looks only at those issues, as Jira's index would,
 * instead of evaluating every issue of a 50,000-issue project. Undefined when it is not limited.
 */
export function idsRequiredBy(clause: JqlClause | null): Set<string> | undefined {
  if (!clause) return undefined;
  if (clause.kind === "compare") {
    return clause.field === "id" && (clause.op === "in" || clause.op === "=") ? new Set(clause.values) : undefined;
  }
  if (clause.kind !== "and") return undefined;
  const left = idsRequiredBy(clause.left);
  const right = idsRequiredBy(clause.right);
  if (left && right) return new Set([...left].filter((id) => right.has(id)));
  return left ?? right;
}

export function runJql<T>(query: JqlQuery, items: T[], view: (item: T) => JqlIssueView): T[] {
  const viewed = items.map((item) => ({ item, view: view(item) }));
  // Key parts are split once per issue, not once per comparison: a 50,000-issue project sorts in time.
  const filtered = (query.where ? viewed.filter(({ view: v }) => matches(query.where as JqlClause, v)) : viewed).map((entry) => ({
    ...entry,
    keyProject: entry.view.key.split("-")[0] ?? "",
    keyNumber: keyNumber(entry.view.key),
  }));
  const order = query.orderBy.length > 0 ? query.orderBy : [{ field: "created", direction: "desc" as const }];
  filtered.sort((a, b) => {
    for (const { field, direction } of order) {
      let cmp = 0;
      if (field === "key" || field === "issuekey") {
        cmp = a.keyProject === b.keyProject ? a.keyNumber - b.keyNumber : a.keyProject < b.keyProject ? -1 : 1;
      } else if (field === "id") cmp = Number(a.view.id) - Number(b.view.id);
      else if (field === "created" || field === "updated") cmp = a.view[field] < b.view[field] ? -1 : a.view[field] > b.view[field] ? 1 : 0;
      else if (field === "summary") cmp = a.view.summary.localeCompare(b.view.summary);
      else cmp = 0;
      if (cmp !== 0) return direction === "asc" ? cmp : -cmp;
    }
    return Number(a.view.id) - Number(b.view.id);
  });
  return filtered.map(({ item }) => item);
}

/** Jira's opaque page token; ours carries the offset. */
export function encodePageToken(offset: number): string {
  return Buffer.from(JSON.stringify({ o: offset })).toString("base64url");
}

export function decodePageToken(token: string | undefined): number {
  if (!token) return 0;
  try {
    const parsed = JSON.parse(Buffer.from(token, "base64url").toString("utf8")) as { o?: unknown };
    if (typeof parsed.o === "number" && parsed.o >= 0) return parsed.o;
  } catch {
    // fall through to the error below
  }
  throw new JqlError("The provided next page token is invalid or expired.");
}
