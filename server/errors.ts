import type { ErrorBody } from "../common/errors.js";

/** A failure the client can act on: thrown by services, answered in the spec's body format. */
export class AppError extends Error {
  constructor(
    readonly status: number,
    readonly body: ErrorBody,
  ) {
    super(typeof body.Result === "string" ? body.Result : JSON.stringify(body));
    this.name = "AppError";
  }
}

export const badRequest = (message: string) => new AppError(400, { Result: message });
export const fieldError = (field: string, message: string) => new AppError(400, { [field]: [message] });
export const fieldErrors = (errors: Record<string, string[]>) => new AppError(400, errors);
export const unauthorized = (message = "Authentication required") => new AppError(401, { Result: message });
export const forbidden = (message: string) => new AppError(403, { Result: message });
export const notFound = (thing: string) => new AppError(404, { Result: `${thing} not found` });
export const conflict = (message: string) => new AppError(409, { Result: message });
export const unavailable = (message: string) => new AppError(503, { Result: message });
