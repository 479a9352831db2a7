/** A toast asked for through useFlags, numbered in the order asked. */
export type FlagRequest = { id: number; kind: "success" | "error"; title: string; description?: string };
