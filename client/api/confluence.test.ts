import { describe, expect, it } from "vitest";
import { HostRequestError } from "../host/connectHost.js";
import { macroRequirementIds, parseRequirementIds, requirementIdsParameter } from "./confluence.js";

const noHost = {
  request: () => Promise.reject(new Error("no history expected")),
  getMacroData: () => Promise.reject(new Error("no macro data expected")),
};

describe("the Linked requirements macro's choice", () => {
  it("is kept as comma-separated ids and read back, ignoring what is not an id", () => {
    expect(requirementIdsParameter([3, 12])).toEqual({ requirements: "3,12" });
    expect(parseRequirementIds("3, 12,,x,3")).toEqual([3, 12]);
    expect(parseRequirementIds({ value: "7" })).toEqual([7]);
    expect(parseRequirementIds(undefined)).toEqual([]);
  });

  it("comes from the URL parameter first", async () => {
    await expect(macroRequirementIds("?requirements=4,5&macroId=m&pageVersion=3&contentId=1", noHost)).resolves.toEqual([4, 5]);
  });

  it("else from the macro history of the page version the URL names", async () => {
    const asked: string[] = [];
    const host = {
      ...noHost,
      request: async <T>(options: { url: string }) => {
        asked.push(options.url);
        return { parameters: { requirements: "9" } } as T;
      },
    };
    await expect(macroRequirementIds("?requirements=&macroId=abc&pageVersion=3&contentId=65537", host)).resolves.toEqual([9]);
    expect(asked).toEqual(["/rest/api/content/65537/history/3/macro/id/abc"]);
  });

  it("is empty for a macro the history does not know yet, and a failing wiki is an error", async () => {
    const answering = (status: number) => ({
      ...noHost,
      request: () => Promise.reject(new HostRequestError(status, "/rest/api/content/1/history/2/macro/id/m")),
    });
    const search = "?macroId=m&pageVersion=2&contentId=1";
    await expect(macroRequirementIds(search, answering(404))).resolves.toEqual([]);
    await expect(macroRequirementIds(search, answering(503))).rejects.toBeInstanceOf(HostRequestError);
  });

  it("else from the macro's data on the host", async () => {
    const host = { ...noHost, getMacroData: async () => ({ requirements: "2,1" }) };
    await expect(macroRequirementIds("?contentId=65537", host)).resolves.toEqual([2, 1]);
  });
});
