import { useQuery } from "@tanstack/react-query";
import { useEffect } from "react";
import { WIKI_DATA_PROBLEM } from "../../../common/constants.js";
import { loadRequirementsById, macroRequirementIds } from "../../api/confluence.js";
import { RequirementsTable } from "../../components/MacroRequirements/RequirementsTable.js";
import { Loading, Problem, REQUIREMENTS_LOAD_ERROR } from "../../components/MacroRequirements/MacroStates.js";
import { useHost } from "../../host/index.js";

/** `/confluence-linked-requirements-macro`: the requirements the macro's editor chose, as a table. */
export function LinkedRequirementsMacro() {
  const host = useHost();
  const chosen = useQuery({
    queryKey: ["confluence", "macro-choice", window.location.search],
    queryFn: () => macroRequirementIds(window.location.search, host),
    retry: false,
  });
  const requirements = useQuery({
    queryKey: ["confluence", "requirements-by-id", chosen.data],
    queryFn: () => loadRequirementsById(chosen.data ?? []),
    enabled: chosen.isSuccess,
    retry: false,
  });
  useEffect(() => host.resize());

  if (chosen.isError) return <Problem message={WIKI_DATA_PROBLEM} />;
  if (requirements.isError) return <Problem message={REQUIREMENTS_LOAD_ERROR} />;
  if (!requirements.data) return <Loading />;
  return (
    <RequirementsTable
      caption="Chosen requirements"
      requirements={requirements.data}
      emptyText="No requirements chosen. Edit the macro to choose some."
    />
  );
}
