import type { NextFunction, Request, RequestHandler, Response } from "express";

/** Express 4 does not catch rejected promises: every async route handler goes through here. */
export const handle =
  (route: (req: Request, res: Response) => Promise<void>): RequestHandler =>
  (req: Request, res: Response, next: NextFunction) => {
    route(req, res).catch(next);
  };
