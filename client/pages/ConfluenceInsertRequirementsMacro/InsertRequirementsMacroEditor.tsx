import { useQuery } from "@tanstack/react-query";
import { useEffect, useState } from "react";
import { loadRequirementsOfContent, loadSiteRequirements, saveRequirementsOfContent } from "../../api/confluence.js";
import { RequirementsChoice } from "../../components/MacroRequirements/RequirementsChoice.js";
import { Problem, REQUIREMENTS_LOAD_ERROR, useMacroEditorSave } from "../../components/MacroRequirements/MacroStates.js";
import { useHost } from "../../host/index.js";
import { contentIdOf } from "./InsertRequirementsMacro.js";

/**
 * `/confluence-insert-requirements-macro-editor`: the requirements linked to this page, saved in
 * rmCloud with `PUT /api/confluence/content/{contentId}` (the whole list replaces the previous one).
 */
export function InsertRequirementsMacroEditor() {
  const host = useHost();
  const requirements = useQuery({ queryKey: ["confluence", "site-requirements"], queryFn: loadSiteRequirements, retry: false });
  const linked = useQuery({
    queryKey: ["confluence", "editor-links", window.location.search],
    queryFn: async () => {
      const contentId = await contentIdOf(window.location.search, () => host.getContext());
      return { contentId, ids: (await loadRequirementsOfContent(contentId)).map((r) => r.requirement_id) };
    },
    retry: false,
  });
  const [chosen, setChosen] = useState<number[] | undefined>();
  useEffect(() => {
    if (linked.data && chosen === undefined) setChosen(linked.data.ids);
  }, [linked.data, chosen]);

  const failure = useMacroEditorSave(async () => {
    if (!linked.data) throw new Error("The page's links are not loaded");
    await saveRequirementsOfContent(linked.data.contentId, chosen ?? linked.data.ids);
    // The macro has no parameters of its own; saving it puts it on the page.
    host.saveMacro({});
  });

  return (
    <div style={{ padding: 16 }}>
      {requirements.isError || linked.isError ? <Problem message={REQUIREMENTS_LOAD_ERROR} /> : null}
      {failure}
      <RequirementsChoice
        label="Link requirements to this page"
        requirements={requirements.data ?? []}
        value={chosen ?? []}
        onChange={setChosen}
        isLoading={requirements.isLoading || linked.isLoading}
      />
    </div>
  );
}
