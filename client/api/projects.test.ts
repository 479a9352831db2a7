import { describe, expect, it } from "vitest";
import type { HostRequestOptions } from "../host/types.js";
import { loadProjects } from "./projects.js";

describe("the project list", () => {
  it("reads the host's projects 50 at a time until the last page, Global Requirements first", async () => {
    const urls: string[] = [];
    const pages = [
      {
        values: Array.from({ length: 50 }, (_, index) => ({ id: String(10000 + index), key: `P${index}`, name: `Project ${index}` })),
        isLast: false,
      },
      { values: [{ id: "10050", key: "LAST", name: "Last project" }], isLast: true },
    ];
    const host = {
      request: async <T>(options: HostRequestOptions) => {
        urls.push(options.url);
        return pages.shift() as T;
      },
    };
    const projects = await loadProjects(host);
    expect(urls).toEqual(["/rest/api/3/project/search?startAt=0&maxResults=50", "/rest/api/3/project/search?startAt=50&maxResults=50"]);
    expect(projects).toHaveLength(52);
    expect(projects[0]).toEqual({ id: 0, key: "", name: "Global Requirements" });
    expect(projects[1]).toEqual({ id: 10000, key: "P0", name: "Project 0" });
    expect(projects.at(-1)).toEqual({ id: 10050, key: "LAST", name: "Last project" });
  });
});
