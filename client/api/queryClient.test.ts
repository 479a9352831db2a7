import { MutationObserver } from "@tanstack/react-query";
import { describe, expect, it } from "vitest";
import { Toasts } from "../components/Flags/toasts.js";
import { becauseOf, createQueryClient } from "./queryClient.js";
import { requirementsNoun } from "./requirements.js";

function recorded(toasts: Toasts): string[] {
  return toasts.getSnapshot().map((request) => `${request.title}${request.description ? `: ${request.description}` : ""}`);
}

function change<V>(
  meta: { success?: string | ((variables: V) => string); failure?: (error: Error, variables: V) => string },
  outcome: () => Promise<unknown>,
) {
  const toasts = new Toasts();
  const observer = new MutationObserver(createQueryClient(toasts), { mutationFn: (_variables: V) => outcome(), meta });
  return { toasts, observer };
}

describe("a change's toasts, declared with the change", () => {
  it("shows the success message when the change works", async () => {
    const { toasts, observer } = change({ success: "Folder created successfully" }, async () => 7);
    await expect(observer.mutate(undefined)).resolves.toBe(7);
    expect(recorded(toasts)).toEqual(["Folder created successfully"]);
  });

  it("shows the server's text under the title Error and keeps the failure for the dialog", async () => {
    const stale = new Error("This requirement was changed by someone else. Reload it and try again.");
    const { toasts, observer } = change({ failure: becauseOf("There was a problem saving your folder") }, () => Promise.reject(stale));
    await expect(observer.mutate(undefined)).rejects.toBe(stale);
    expect(recorded(toasts)).toEqual([
      "Error: There was a problem saving your folder: This requirement was changed by someone else. Reload it and try again.",
    ]);
  });

  it("words requirements in the singular for one, from what was changed", async () => {
    const { toasts, observer } = change(
      { success: (ids: number[]) => `${requirementsNoun(ids.length)} deleted successfully` },
      async () => undefined,
    );
    await observer.mutate([1]);
    await observer.mutate([1, 2, 3]);
    expect(recorded(toasts)).toEqual(["Requirement deleted successfully", "Requirements deleted successfully"]);
  });

  it("says nothing itself for a change that declares no messages", async () => {
    const { toasts, observer } = change({}, () => Promise.reject(new Error("refused")));
    await expect(observer.mutate(undefined)).rejects.toThrow("refused");
    expect(recorded(toasts)).toEqual([]);
  });
});

describe("a failed load's toast", () => {
  it("shows the load's own message once the load has failed, wherever it was asked for", async () => {
    const toasts = new Toasts();
    const client = createQueryClient(toasts);
    const failing = { queryKey: ["attributes"], queryFn: () => Promise.reject(new Error("503")), retry: false } as const;
    await expect(
      client.fetchQuery({ ...failing, meta: { loadError: "There was a problem loading custom attributes." } }),
    ).rejects.toThrow();
    await expect(
      client.fetchQuery({ ...failing, queryKey: ["types"], meta: { loadError: (error: Error) => `Types: ${error.message}` } }),
    ).rejects.toThrow();
    expect(recorded(toasts)).toEqual(["Error: There was a problem loading custom attributes.", "Error: Types: 503"]);
  });
});
