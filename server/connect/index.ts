import type { Express } from "express";
import type { AppDeps } from "../deps.js";

/** Connect descriptors and the installation lifecycle (atlassian-connect-express). */
export async function mountConnect(_app: Express, _deps: AppDeps): Promise<void> {}
