import { useEffect, useRef, useState } from "react";
import { withLinkChanges } from "../../api/linkListChanges.js";
import { GLOBAL_PROJECT_NAME } from "../../api/projects.js";
import { RequirementPicker } from "../../components/RequirementPicker/RequirementPicker.js";
import { useHost } from "../../host/index.js";
import { type IssueContext, issueContextOf, linkableProjectIds } from "../IssuePanel/issueContext.js";
import { type LinkedToIssue, loadIssueRequirements, saveIssueRequirements } from "../IssuePanel/issueRequirements.js";

/** Spec section 8. */
export const SAVED = "Linked requirements saved successfully";
export const SAVE_FAILED =
  'There was an error saving your linked requirements. Please contact rmCloud support via the "Get help" button on the Requirements page.';
export const LOAD_FAILED = "There was an error loading your requirements";

type Loaded = { issue: IssueContext; linked: LinkedToIssue[] };

async function loadDialog(search: string, getContext: Parameters<typeof issueContextOf>[1]): Promise<Loaded> {
  const issue = await issueContextOf(search, getContext);
  return { issue, linked: await loadIssueRequirements(issue) };
}

const groupOf = (requirement: { project: number }) => (requirement.project === 0 ? GLOBAL_PROJECT_NAME : "This project");

/**
 * `/link-requirements-dialog`, inside the host dialog 'Update linked requirements': a multi-select
 * searching the project's and the global requirements, saved when the host dialog's submit is pressed.
 * The outcome is a host flag, since the dialog closes on success.
 */
export function LinkRequirementsDialog() {
  const host = useHost();
  const [loaded, setLoaded] = useState<Loaded | "failed" | undefined>();
  const [selected, setSelected] = useState<readonly number[]>([]);
  const current = useRef<{ issue?: IssueContext; loaded: readonly number[]; selected: readonly number[] }>({
    loaded: [],
    selected: [],
  });
  current.current.selected = selected;

  useEffect(() => {
    loadDialog(window.location.search, () => host.getContext()).then(
      (result) => {
        current.current.issue = result.issue;
        current.current.loaded = result.linked.map((requirement) => requirement.requirement_id);
        setSelected(current.current.loaded);
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
        await saveIssueRequirements(issue.issueId, withLinkChanges({ loaded, chosen: [...chosen], latest }));
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
      <RequirementPicker
        inputId="link-requirements-select"
        scope={{ projectIds: linkableProjectIds(loaded?.issue.projectId ?? 0) }}
        value={selected}
        onChange={setSelected}
        known={loaded?.linked}
        groupOf={groupOf}
        isLoading={loaded === undefined}
        isDisabled={loaded === undefined}
        placeholder="Choose requirements"
        menuPortalTarget={document.body}
        keepMenuOpenOnSelect
      />
    </div>
  );
}
