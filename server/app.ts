import compression from "compression";
import express, { type Express } from "express";
import { mountConnect } from "./connect/index.js";
import { DATABASE_UNREACHABLE_MESSAGE } from "./db/queryHelpers.js";
import type { AppDeps } from "./deps.js";
import { requestLogger } from "./logger.js";
import { errorHandler, notFoundHandler } from "./middleware/errorHandler.js";
import { jsonBodies } from "./middleware/jsonBody.js";
import { apiRouter } from "./routes/index.js";
import { mountStorageEndpoint } from "./storage/index.js";

export type SpaMount = (app: Express) => Promise<void> | void;

/**
 * The Express app without listen(), so Supertest drives exactly what production serves.
 * `mountSpa` serves the React app (Vite in development, built files in production); tests omit it.
 */
export async function createApp(deps: AppDeps, mountSpa?: SpaMount): Promise<Express> {
  const app = express();
  app.disable("x-powered-by");
  app.set("trust proxy", true);
  app.use(requestLogger(deps.logger));
  mountStorageEndpoint(app, deps.storage);
  // API answers are compressed on the way out (the built client's files are precompressed, stored files
  // are served by storage): a tree window or matrix page of JSON shrinks to about a tenth.
  app.use("/api", compression());
  app.use(jsonBodies());

  app.get("/healthz", async (_req, res) => {
    try {
      await deps.db.raw("select 1");
      res.json({ status: "ok" });
    } catch {
      res.status(503).json({ Result: DATABASE_UNREACHABLE_MESSAGE });
    }
  });

  await mountConnect(app, deps);
  app.use(apiRouter(deps));
  app.use("/api", notFoundHandler);
  if (mountSpa) await mountSpa(app);
  app.use(notFoundHandler);
  app.use(errorHandler(deps.logger));
  return app;
}
