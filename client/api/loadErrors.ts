const GET_HELP = 'Please contact rmCloud support via the "Get help" button';

/** Spec section 8: problems loading host or rmCloud data, each with the Get help advice. */
export const ATTRIBUTES_LOAD_ERROR = `There was a problem loading custom attributes.  ${GET_HELP}`;
export const ASSIGNEES_LOAD_ERROR = `There was a problem loading assignee data.  ${GET_HELP}`;
export const COMPONENTS_LOAD_ERROR = `There was a problem loading component data.  ${GET_HELP}`;
export const STATUSES_LOAD_ERROR = `There was a problem loading status data.  ${GET_HELP}`;
export const ACTIVITY_LOAD_ERROR = `There was a problem loading the requirement's activity.  ${GET_HELP}`;
export const SETTINGS_LOAD_ERROR = `There was a problem loading your settings.  ${GET_HELP}`;
export const PROJECTS_LOAD_ERROR = "There was a problem retrieving your project data from Atlassian.";

export function requirementTypesLoadError(error: Error): string {
  return `There was a problem retrieving your requirement types: ${error.message}`;
}
