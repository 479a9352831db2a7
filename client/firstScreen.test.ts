import { QueryClient } from "@tanstack/react-query";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { levelWindowAddress } from "../common/firstReads.js";
import { topLevelItemsQuery } from "./api/items.js";
import { matrixWindowQuery, NO_MATRIX_FILTER } from "./api/matrix.js";
import { memoryStorage } from "./api/pageStorage.js";
import { startFirstScreen } from "./firstScreen.js";
import type { Host } from "./host/types.js";

const tabCode = vi.hoisted(() => ({ asked: [] as string[] }));
vi.mock("./components/MainLayout/tabScreens.js", () => ({
  tabScreenLoader: (tab: string) =>
    tab === "requirements"
      ? undefined
      : async () => {
          tabCode.asked.push(tab);
        },
}));

const TREE = { items: [{ folder_id: 1, name: "Safety" }], total_items: 1 };
const MATRIX = { total_rows: 1, header_row: ["ID", "Name", "Type"], requirement_types: [], rows: [] };
const page = {
  href: "http://addon.test/authenticate/requirements?projectId=10000&jwt=url-jwt",
  pathname: "/authenticate/requirements",
  search: "?projectId=10000&jwt=url-jwt",
} as Location;

let answerTree: () => void;
const replaced: string[] = [];

/** The add-on: the exchange answers at once, the tree's first window when the test says. */
function serve() {
  const treeAnswered = new Promise<void>((resolve) => {
    answerTree = resolve;
  });
  vi.stubGlobal("fetch", async (url: string) => {
    const json = (body: unknown) => new Response(JSON.stringify(body), { status: 200, headers: { "content-type": "application/json" } });
    if (url === "/api/exchange-token") return json({ token: "app-token" });
    if (url === levelWindowAddress(10000, null, 0)) {
      await treeAnswered;
      return json(TREE);
    }
    if (url.startsWith("/api/requirement/matrix?")) return json(MATRIX);
    return json({ items: [], total_items: 0 });
  });
}

function jiraHost(hostState?: string): Host {
  return {
    getContextToken: async () => "context-jwt",
    getContext: async () => ({ product: "jira", projectId: "10000" }),
    history: {
      getState: async () => hostState,
      pushState: () => undefined,
      replaceState: () => undefined,
      onPopState: () => () => undefined,
    },
  } as unknown as Host;
}

/** Whether `promise` has settled once pending work has run. */
async function settled(promise: Promise<unknown>): Promise<boolean> {
  let done = false;
  void promise.then(() => {
    done = true;
  });
  await new Promise((resolve) => setTimeout(resolve, 0));
  return done;
}

beforeEach(() => {
  replaced.length = 0;
  tabCode.asked.length = 0;
  vi.stubGlobal("sessionStorage", memoryStorage());
  vi.stubGlobal("window", {
    location: page,
    history: { replaceState: (_state: unknown, _title: string, url: string) => replaced.push(url) },
  });
  serve();
});

afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

describe("the first screen's start", () => {
  it("moves the iframe to where the sign-in leads and is ready once the tree's first rows are in", async () => {
    const queryClient = new QueryClient();
    const started = startFirstScreen(jiraHost(), queryClient, page);
    expect(await settled(started)).toBe(false);
    expect(replaced).toEqual(["/requirements?projectId=10000"]);
    answerTree();
    await started;
    expect(queryClient.getQueryData(topLevelItemsQuery(10000).queryKey)).toEqual(TREE);
  });

  it("does not wait for the tree when the host's history opens another project", async () => {
    const started = startFirstScreen(jiraHost("10001-requirements"), new QueryClient(), page);
    expect(await settled(started)).toBe(true);
    expect(tabCode.asked).toEqual([]);
  });

  it("asks for another tab's code before the first render when the host's history opens on that tab", async () => {
    const started = startFirstScreen(jiraHost("10000-traceability"), new QueryClient(), page);
    expect(await settled(started)).toBe(true);
    expect(tabCode.asked).toEqual(["traceability"]);
  });

  it("asks for the matrix's first rows beside its code when the host's history opens on the matrix", async () => {
    const queryClient = new QueryClient();
    await startFirstScreen(jiraHost("10000-traceability"), queryClient, page);
    await vi.waitFor(() => expect(queryClient.getQueryData(matrixWindowQuery(10000, NO_MATRIX_FILTER, 0).queryKey)).toEqual(MATRIX));
  });

  it("asks for no matrix rows when the screen opens on the tree", async () => {
    const queryClient = new QueryClient();
    const started = startFirstScreen(jiraHost(), queryClient, page);
    answerTree();
    await started;
    expect(queryClient.getQueryCache().findAll({ queryKey: ["matrix"] })).toEqual([]);
  });

  it("renders with the tree still loading when its read takes over a second", async () => {
    vi.useFakeTimers({ toFake: ["setTimeout"] });
    let ready = false;
    void startFirstScreen(jiraHost(), new QueryClient(), page).then(() => {
      ready = true;
    });
    await vi.advanceTimersByTimeAsync(0);
    await vi.advanceTimersByTimeAsync(999);
    expect(ready).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    expect(ready).toBe(true);
  });
});
