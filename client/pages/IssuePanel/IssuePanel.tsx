import { useCallback, useEffect, useState } from "react";
import { requirementIdLabel, SUSPECT_MARKER } from "../../../common/labels.js";
import type { Host } from "../../host/types.js";
import { requirementPageUrl } from "../../../common/requirementLink.js";
import type { IssueContext } from "./issueContext.js";
import { type LinkedToIssue, loadIssueRequirements } from "./issueRequirements.js";

export const LINK_REQUIREMENTS_DIALOG = { key: "link-requirements-dialog", width: "80%", height: "60%", chrome: true } as const;
/** Spec section 8. */
export const LOAD_ERROR = "There was an error loading your requirements";

/** The linked requirements as a load of them ended. */
export type LinkedRequirements = { status: "failed" } | { status: "ready"; requirements: LinkedToIssue[] };
type State = { status: "loading" } | LinkedRequirements;

/** How a load of the linked requirements ends: never rejects. */
export function linkedRequirementsOf(load: Promise<LinkedToIssue[]>): Promise<LinkedRequirements> {
  return load.then(
    (requirements) => ({ status: "ready", requirements }),
    () => ({ status: "failed" }),
  );
}

/**
 * The right panel of a Jira issue (spec section 2): the linked requirements, each opening in a
 * new tab, and Edit, which opens the link dialog and reads the list again when it closes.
 * Plain elements on purpose: this loads in every issue view and must stay small.
 */
export function IssuePanel({
  host,
  issue,
  jiraBaseUrl,
  first,
}: {
  host: Host;
  issue: IssueContext;
  jiraBaseUrl: string;
  /** The linked requirements as the page loaded them before its first render (panel.tsx): shown in that render, not loaded again. */
  first?: LinkedRequirements;
}) {
  const [state, setState] = useState<State>(first ?? { status: "loading" });

  const reload = useCallback(() => void linkedRequirementsOf(loadIssueRequirements(issue)).then(setState), [issue]);

  useEffect(() => {
    if (!first) reload();
  }, [first, reload]);
  // The host sizes the iframe to its content only when told, so after every render.
  useEffect(() => host.resize());

  const edit = () => {
    host.openDialog({ ...LINK_REQUIREMENTS_DIALOG, customData: issue }).onClose(reload);
  };

  return (
    <section className="rm-panel" aria-busy={state.status === "loading"}>
      {state.status === "loading" && <p className="rm-muted">Loading…</p>}
      {state.status === "failed" && <p role="alert">{LOAD_ERROR}</p>}
      {state.status === "ready" && state.requirements.length === 0 && <p className="rm-muted">No requirements are linked to this issue.</p>}
      {state.status === "ready" && state.requirements.length > 0 && (
        <SuspectNote count={state.requirements.filter((requirement) => requirement.issue_link_suspect).length} />
      )}
      {state.status === "ready" && state.requirements.length > 0 && (
        <table className="rm-table" aria-label="Linked requirements">
          <thead>
            <tr>
              <th scope="col">ID</th>
              <th scope="col">Name</th>
            </tr>
          </thead>
          <tbody>
            {state.requirements.map((requirement) => {
              const href = requirementPageUrl(jiraBaseUrl, {
                jiraProjectId: issue.projectId,
                projectId: requirement.projectId,
                requirementId: requirement.requirement_id,
              });
              return (
                <tr key={requirement.requirement_id}>
                  <td>
                    <a href={href} target="_blank" rel="noopener noreferrer">
                      {requirementIdLabel(requirement)}
                    </a>
                  </td>
                  <td>
                    <a href={href} target="_blank" rel="noopener noreferrer">
                      {requirement.name}
                    </a>
                    {requirement.issue_link_suspect ? (
                      <span className="rm-suspect" title="Changed since its link to this issue was last reviewed">
                        {" "}
                        {SUSPECT_MARKER}
                      </span>
                    ) : null}
                  </td>
                </tr>
              );
            })}
          </tbody>
        </table>
      )}
      <button type="button" className="rm-button" onClick={edit}>
        Edit
      </button>
    </section>
  );
}

/** Issue 34: how many of the issue's requirements changed since their link to it was last reviewed. */
function SuspectNote({ count }: { count: number }) {
  if (count === 0) return null;
  return (
    <p className="rm-suspect-note" role="status">
      {count === 1 ? "1 requirement changed" : `${count} requirements changed`} since the link to this issue was last reviewed.
    </p>
  );
}
