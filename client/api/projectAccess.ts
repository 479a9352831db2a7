import { useQuery } from "@tanstack/react-query";
import type { ProjectAccessResponse, ProjectAccessView } from "../../common/schemas/access.js";
import { api } from "./client.js";

/**
 * What the user may do in the project, as Jira tells the server (GET /api/project/access):
 * browse, edit requirements, manage baselines. Undefined while it loads.
 */
export function useProjectAccess(projectId: number) {
  return useQuery({
    queryKey: ["project-access", projectId],
    queryFn: async (): Promise<ProjectAccessView | undefined> =>
      (await api.get<ProjectAccessResponse>("/api/project/access", { atlassian_project_id: projectId })).projects[0],
  });
}
