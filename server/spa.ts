import type { Express } from "express";
import type { Config } from "./config.js";

export async function mountSpa(_app: Express, _config: Config): Promise<void> {}
