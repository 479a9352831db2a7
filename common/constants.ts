/**
 * Values the screens show or compare with, apart from the zod schemas that also use them: a module
 * of the browser's first screen that imported a schema file for a constant would load zod with it
 * (issue 39). The schema files re-export them for the server.
 */

/** Spec section 1: the pseudo-project for requirements that link to issues across the whole instance. */
export const GLOBAL_PROJECT_ID = 0;

/** Spec section 9: a baseline's ID is shown as 'B' plus its id. */
export const BASELINE_ID_PREFIX = "B";
export const baselineIdLabel = (baselineId: number) => `${BASELINE_ID_PREFIX}${baselineId}`;

/** The most hits one requirement search answers (pickers and the Requirements screen's search alike), and its default. */
export const SEARCH_LIMIT_MAX = 50;
export const SEARCH_LIMIT_DEFAULT = 20;

/** Spec section 8: a problem loading wiki data, with the Get help advice (worded like the custom attributes one). */
export const WIKI_DATA_PROBLEM = 'There was a problem loading wiki data.  Please contact rmCloud support via the "Get help" button';

/** The matrix filter's words as both sides match them: split on white space, lower-cased. */
export const filterWords = (text: string | undefined): string[] => (text ?? "").toLowerCase().split(/\s+/).filter(Boolean);
