import { useQuery } from "@tanstack/react-query";
import { useHost } from "../host/index.js";
import { PROJECTS_LOAD_ERROR } from "./loadErrors.js";
import type { Host } from "../host/types.js";

import { GLOBAL_PROJECT_ID } from "../../common/constants.js";

export { GLOBAL_PROJECT_ID };
export const GLOBAL_PROJECT_NAME = "Global Requirements";
/** Spec section 9: the host's project search is read 50 at a time. */
export const PROJECT_PAGE_SIZE = 50;

export type Project = { id: number; key: string; name: string };

type ProjectSearchPage = {
  values: Array<{ id: string | number; key: string; name: string }>;
  isLast?: boolean;
};

/** Every project the user can browse, paged through the host until `isLast`, Global Requirements first. */
export async function loadProjects(host: Pick<Host, "request">): Promise<Project[]> {
  const projects: Project[] = [{ id: GLOBAL_PROJECT_ID, key: "", name: GLOBAL_PROJECT_NAME }];
  for (let startAt = 0; ; startAt += PROJECT_PAGE_SIZE) {
    const page = await host.request<ProjectSearchPage>({
      url: `/rest/api/3/project/search?startAt=${startAt}&maxResults=${PROJECT_PAGE_SIZE}`,
      type: "GET",
    });
    for (const project of page.values) projects.push({ id: Number(project.id), key: project.key, name: project.name });
    if (page.isLast !== false || page.values.length === 0) return projects;
  }
}

/** Spec section 2: the project list is refreshed on load. */
export function useProjects() {
  const host = useHost();
  return useQuery({
    queryKey: ["projects"],
    queryFn: () => loadProjects(host),
    refetchOnMount: "always",
    meta: { loadError: PROJECTS_LOAD_ERROR },
  });
}
