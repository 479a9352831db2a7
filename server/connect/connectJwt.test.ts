import * as atlassianJwt from "atlassian-jwt";
import { describe, expect, it } from "vitest";
import { CLOCK_SKEW_SECONDS, CONTEXT_QSH, queryStringHash, signAppJwt, unverifiedIssuer, verifyConnectJwt } from "./connectJwt.js";

const secret = "shared-secret-of-the-installation";
const page = "/authenticate/requirements?projectId=10000&projectKey=DEMO&lic=active&xdm_e=https%3A%2F%2Fsite.atlassian.net";
const now = 1_700_000_000;

function sign(claims: Record<string, unknown>, key = secret): string {
  return atlassianJwt.encodeSymmetric(
    { iss: "jira:client-key", sub: "557058:user", iat: now, exp: now + 180, qsh: queryStringHash("GET", page), ...claims },
    key,
  );
}

const verify = (token: string, pathAndQuery = page) => verifyConnectJwt(token, secret, { method: "GET", pathAndQuery }, now + 10);

describe("Connect JWT verification", () => {
  it("accepts a token the host signed for this page", () => {
    const result = verify(sign({}));
    expect(result).toEqual({
      ok: true,
      claims: { iss: "jira:client-key", sub: "557058:user", qsh: queryStringHash("GET", page), exp: now + 180, iat: now },
    });
  });

  it("ignores the jwt query parameter when it hashes the page, as the host does", () => {
    expect(verify(sign({}), `${page}&jwt=the.token.itself`).ok).toBe(true);
  });

  it("refuses an expired token", () => {
    expect(verify(sign({ exp: now - 1 }))).toEqual({ ok: false, reason: "expired" });
  });

  it("refuses a token issued in the future beyond the clock skew", () => {
    const checkedAt = now + 10;
    expect(verify(sign({ iat: now + 86_400, exp: now + 86_400 + 180 }))).toEqual({ ok: false, reason: "future" });
    expect(verify(sign({ iat: checkedAt + CLOCK_SKEW_SECONDS + 1 }))).toEqual({ ok: false, reason: "future" });
    expect(verify(sign({ iat: checkedAt + CLOCK_SKEW_SECONDS })).ok).toBe(true);
    expect(verify(sign({ iat: "tomorrow" }))).toEqual({ ok: false, reason: "malformed" });
  });

  it("accepts a token without iat (the claim is optional)", () => {
    expect(verify(sign({ iat: undefined })).ok).toBe(true);
  });

  it("refuses a token signed with another secret", () => {
    expect(verify(sign({}, "someone-elses-secret"))).toEqual({ ok: false, reason: "signature" });
  });

  it("refuses a token issued for another page", () => {
    expect(verify(sign({ qsh: queryStringHash("GET", "/authenticate/configuration") }))).toEqual({ ok: false, reason: "qsh" });
    expect(verify(sign({}), page.replace("10000", "10001"))).toEqual({ ok: false, reason: "qsh" });
  });

  it("accepts a context-qsh token from AP.context.getToken for any page", () => {
    expect(verify(sign({ qsh: CONTEXT_QSH }), "/authenticate/configuration").ok).toBe(true);
  });

  it("refuses an unsigned token (alg none)", () => {
    const encode = (value: object) => Buffer.from(JSON.stringify(value)).toString("base64url");
    const unsigned = `${encode({ alg: "none", typ: "JWT" })}.${encode({ iss: "jira:client-key", sub: "u", exp: now + 180, qsh: CONTEXT_QSH })}.`;
    expect(verify(unsigned)).toEqual({ ok: false, reason: "algorithm" });
  });

  it("refuses a token signed with another algorithm and garbage", () => {
    const hs512 = atlassianJwt.encodeSymmetric(
      { iss: "x", exp: now + 180, qsh: CONTEXT_QSH },
      secret,
      atlassianJwt.SymmetricAlgorithm.HS512,
    );
    expect(verify(hs512)).toEqual({ ok: false, reason: "algorithm" });
    expect(verify("not-a-jwt")).toEqual({ ok: false, reason: "malformed" });
  });

  it("reads the issuer before verification so the right secret can be found", () => {
    expect(unverifiedIssuer(sign({}))).toBe("jira:client-key");
    expect(unverifiedIssuer("garbage")).toBeNull();
  });
});

describe("app JWT for host calls", () => {
  it("carries the app key, a 3-minute life and the qsh of the call", () => {
    const token = signAppJwt("rmcloud", secret, "POST", "/rest/api/3/issue/10001/comment?expand=x", now);
    const claims = atlassianJwt.decodeSymmetric(token, secret, atlassianJwt.SymmetricAlgorithm.HS256);
    expect(claims).toEqual({
      iss: "rmcloud",
      iat: now,
      exp: now + 180,
      qsh: queryStringHash("POST", "/rest/api/3/issue/10001/comment?expand=x"),
    });
  });
});
