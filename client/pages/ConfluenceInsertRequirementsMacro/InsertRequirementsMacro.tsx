import { useQuery } from "@tanstack/react-query";
import { useEffect } from "react";
import { confluenceKeys, loadRequirementsOfContent } from "../../api/confluence.js";
import { RequirementsTable } from "../../components/MacroRequirements/RequirementsTable.js";
import { Loading, Problem, REQUIREMENTS_LOAD_ERROR } from "../../components/MacroRequirements/MacroStates.js";
import { useHost } from "../../host/index.js";

/** The page the macro sits on: the descriptor puts it in the URL, the host's context knows it too. */
export async function contentIdOf(search: string, getContext: () => Promise<{ contentId?: string }>): Promise<string> {
  const fromUrl = new URLSearchParams(search).get("contentId");
  const contentId = fromUrl && /^\d+$/.test(fromUrl) ? fromUrl : (await getContext()).contentId;
  if (!contentId || !/^\d+$/.test(contentId)) throw new Error("The host did not say which page this is");
  return contentId;
}

/** `/confluence-insert-requirements-macro`: the requirements linked to the page it sits on. */
export function InsertRequirementsMacro() {
  const host = useHost();
  const requirements = useQuery({
    queryKey: confluenceKeys.requirementsOfContent(window.location.search),
    queryFn: async () => loadRequirementsOfContent(await contentIdOf(window.location.search, () => host.getContext())),
    retry: false,
  });
  useEffect(() => host.resize());

  if (requirements.isError) return <Problem message={REQUIREMENTS_LOAD_ERROR} />;
  if (!requirements.data) return <Loading />;
  return (
    <RequirementsTable
      caption="Requirements linked to this page"
      requirements={requirements.data}
      emptyText="No requirements are linked to this page."
    />
  );
}
