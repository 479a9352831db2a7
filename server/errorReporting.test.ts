import * as Sentry from "@sentry/node";
import { afterAll, describe, expect, it } from "vitest";
import { reportError, startErrorReporting } from "./errorReporting.js";

/** A transport that keeps every envelope Sentry would send, as text: nothing leaves the process. */
function recordingTransport() {
  const sent: string[] = [];
  const transport = (options: Parameters<typeof Sentry.createTransport>[0]) =>
    Sentry.createTransport(options, async (request) => {
      sent.push(typeof request.body === "string" ? request.body : new TextDecoder().decode(request.body));
      return { statusCode: 200 };
    });
  return { sent, transport };
}

const connectJwt = "eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJpc3MiOiJqaXJhOjEyMyIsInFzaCI6ImFiYyJ9.c2lnbmF0dXJlLWJ5dGVz";
const appToken = "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiI1NTcwNTg6dXNlciIsInRpZCI6InRlbmFudCJ9.YXBwLXRva2VuLXNpZw";

afterAll(() => Sentry.close());

describe("error reports", () => {
  it("are off without a DSN: nothing is sent and Sentry is never started", async () => {
    const { sent, transport } = recordingTransport();
    expect(await startErrorReporting({ sentryDsn: undefined, env: "test" }, { transport })).toBe(false);
    reportError(new Error(`failed for jane@example.com with ${connectJwt}`));
    await Sentry.flush(500);
    expect(Sentry.isInitialized()).toBe(false);
    expect(sent).toEqual([]);
  });

  it("carry the error but no token, Connect JWT, Authorization header, e-mail address or requirement text", async () => {
    const { sent, transport } = recordingTransport();
    const started = await startErrorReporting(
      { sentryDsn: "https://public@o0.ingest.sentry.io/1", env: "test" },
      { transport, defaultIntegrations: false },
    );
    expect(started).toBe(true);

    Sentry.addBreadcrumb({
      category: "http",
      message: "mail to jane@example.com",
      data: {
        url: `https://site.atlassian.net/rest/api/3/issue/10001?jwt=${connectJwt}`,
        status_code: 500,
        body: "Brakes respond within 50 ms",
      },
    });
    Sentry.captureEvent({
      message: `Host call failed with Authorization: Bearer ${appToken} for jane@example.com`,
      request: {
        url: `https://rmcloud.example/requirements?jwt=${connectJwt}&projectId=10000`,
        method: "PUT",
        headers: { authorization: `JWT ${connectJwt}`, "content-type": "application/json" },
        data: { name: "Brakes respond within 50 ms", description: "The secret plan" },
        cookies: { session: "abc" },
      },
      user: { id: "557058:user", email: "jane@example.com", ip_address: "10.0.0.1" },
      extra: { requirement: { name: "Brakes respond within 50 ms", description: "The secret plan" }, requirementId: 42 },
    });
    reportError(new Error(`Could not save requirement for jane@example.com (token ${appToken})`), { route: "/api/requirement/42" });
    await Sentry.flush(2000);

    const everything = sent.join("\n");
    expect(sent.length).toBeGreaterThanOrEqual(2);
    for (const secret of [connectJwt, appToken, "jane@example.com", "Brakes respond within 50 ms", "The secret plan", "10.0.0.1"]) {
      expect(everything).not.toContain(secret);
    }
    expect(everything).toContain("Could not save requirement for [email]");
    expect(everything).toContain("/api/requirement/42");
    expect(everything).toContain("projectId=10000");
    expect(everything).toContain('"requirementId":42');
    expect(everything).toContain('"id":"557058:user"');
  });
});
