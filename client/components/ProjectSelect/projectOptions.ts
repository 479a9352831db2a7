import type { Project } from "../../api/projects.js";

export type ProjectOption = { label: string; value: number | undefined; isDisabled?: boolean };

export const PLACEHOLDER: ProjectOption = { label: "Select a project", value: undefined, isDisabled: true };

export const GLOBAL_REQUIREMENTS_INFO =
  "Global Requirements are not tied to one Jira project: they link to issues across the whole instance.";

/** Spec section 2: a disabled 'Select a project', then Global Requirements (first in the loaded list), then the projects. */
export function projectOptions(projects: readonly Project[]): ProjectOption[] {
  return [PLACEHOLDER, ...projects.map((project) => ({ label: project.name, value: project.id }))];
}
