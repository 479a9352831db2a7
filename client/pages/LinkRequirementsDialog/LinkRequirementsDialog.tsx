import Select from "@atlaskit/select";
import { useEffect, useRef, useState } from "react";
import { withLinkChanges } from "../../api/linkListChanges.js";
import { GLOBAL_PROJECT_NAME } from "../../api/projects.js";
import { requirementLabel } from "../../../common/labels.js";
import { useHost } from "../../host/index.js";
import { type IssueContext, issueContextOf } from "../IssuePanel/issueContext.js";
import {
  type IssueRequirement,
  loadIssueRequirements,
  loadProjectRequirements,
  saveIssueRequirements,
} from "../IssuePanel/issueRequirements.js";

/** Spec section 8. */
export const SAVED = "Linked requirements saved successfully";
export const SAVE_FAILED =
  'There was an error saving your linked requirements. Please contact rmCloud support via the "Get help" button on the Requirements page.';
export const LOAD_FAILED = "There was an error loading your requirements";

type Option = { value: number; label: string };
type Group = { label: string; options: Option[] };

const optionOf = (requirement: IssueRequirement): Option => ({ value: requirement.requirement_id, label: requirementLabel(requirement) });

type Loaded = { issue: IssueContext; groups: Group[]; selected: Option[] };

async function loadDialog(search: string, getContext: Parameters<typeof issueContextOf>[1]): Promise<Loaded> {
  const issue = await issueContextOf(search, getContext);
  const [linked, projectRequirements, globalRequirements] = await Promise.all([
    loadIssueRequirements(issue),
    issue.projectId === 0 ? Promise.resolve([]) : loadProjectRequirements(issue.projectId),
    loadProjectRequirements(0),
  ]);
  const groups: Group[] = [
    ...(issue.projectId === 0 ? [] : [{ label: "This project", options: projectRequirements.map(optionOf) }]),
    { label: GLOBAL_PROJECT_NAME, options: globalRequirements.map(optionOf) },
  ];
  return { issue, groups, selected: linked.map(optionOf) };
}

/**
 * `/link-requirements-dialog`, inside the host dialog 'Update linked requirements': a multi-select
 * of the project's and the global requirements, saved when the host dialog's submit is pressed.
 * The outcome is a host flag, since the dialog closes on success.
 */
export function LinkRequirementsDialog() {
  const host = useHost();
  const [loaded, setLoaded] = useState<Loaded | "failed" | undefined>();
  const [selected, setSelected] = useState<readonly Option[]>([]);
  const current = useRef<{ issue?: IssueContext; loaded: readonly number[]; selected: readonly Option[] }>({
    loaded: [],
    selected: [],
  });
  current.current.selected = selected;

  useEffect(() => {
    loadDialog(window.location.search, () => host.getContext()).then(
      (result) => {
        current.current.issue = result.issue;
        current.current.loaded = result.selected.map((option) => option.value);
        setSelected(result.selected);
        setLoaded(result);
      },
      () => setLoaded("failed"),
    );
  }, [host]);

  useEffect(() => {
    host.onDialogSubmit(async () => {
      const { issue, loaded, selected: chosen } = current.current;
      if (!issue) return false;
      try {
        const latest = (await loadIssueRequirements(issue)).map((requirement) => requirement.requirement_id);
        await saveIssueRequirements(
          issue.issueId,
          withLinkChanges({ loaded, chosen: chosen.map((option) => option.value), latest }),
        );
        host.showFlag({ title: SAVED, body: "", type: "success" });
        return true;
      } catch {
        host.showFlag({ title: "Error", body: SAVE_FAILED, type: "error" });
        return false;
      }
    });
  }, [host]);

  useEffect(() => host.sizeToParent(), [host]);

  if (loaded === "failed") return <p role="alert">{LOAD_FAILED}</p>;
  return (
    <div style={{ padding: 16 }}>
      <label htmlFor="link-requirements-select" style={{ display: "block", fontWeight: 600, marginBottom: 4 }}>
        Link requirements to issue
      </label>
      <Select<Option, true>
        inputId="link-requirements-select"
        isMulti
        isLoading={loaded === undefined}
        isDisabled={loaded === undefined}
        options={loaded?.groups ?? []}
        value={selected}
        onChange={(value) => setSelected(value)}
        placeholder="Choose requirements"
        closeMenuOnSelect={false}
        menuPortalTarget={document.body}
      />
    </div>
  );
}
