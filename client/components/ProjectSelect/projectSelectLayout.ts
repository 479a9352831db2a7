/** What the project dropdown and its first-screen stand-in share, so that one replaces the other in place. */
export type ProjectSelectProps = { projectId: number | undefined; onChange(projectId: number): void };

export const SELECT_WIDTH = 260;

export const INFO_BUTTON = { background: "none", border: 0, padding: 0, cursor: "help", display: "inline-flex" } as const;
