import { useEffect } from "react";
import type { ExchangeTokenBody, TokenResponse } from "../../common/schemas/auth.js";
import type { Host } from "../host/types.js";
import { ApiError, api, onUnauthorized, tokenStore } from "./client.js";

export type { User } from "../../common/schemas/auth.js";

/** Spec section 9: refresh the app token every 1440 minutes. */
export const TOKEN_REFRESH_MS = 1440 * 60 * 1000;

/**
 * Trades the host's Connect JWT for our app token and stores it. The JWT is the one in the iframe
 * URL (signed for that URL) or, when the URL carries none, a context token from the bridge.
 */
export async function exchangeToken(
  request: ExchangeTokenBody,
  source: { search: string; host: Pick<Host, "getContextToken"> },
): Promise<string> {
  const jwt = new URLSearchParams(source.search).get("jwt") ?? (await source.host.getContextToken());
  const body = JSON.stringify(request);
  const response = await (earlyExchange(jwt, body) ??
    fetch("/api/exchange-token", {
      method: "POST",
      headers: { Authorization: `JWT ${jwt}`, "Content-Type": "application/json", Accept: "application/json" },
      body,
    }));
  const text = await response.text();
  const answer: unknown = text ? safeJson(text) : undefined;
  if (!response.ok) throw new ApiError(response.status, answer);
  const token = (answer as { token?: unknown } | undefined)?.token;
  if (typeof token !== "string") throw new ApiError(response.status, { Result: "The sign-in answer carried no token" });
  tokenStore.set(token, request.product);
  return token;
}

/** The exchange client/public/early-sign-in.js started in the page's head, with what it asked. */
type EarlyExchange = { jwt: string; body: string; response: Promise<Response> };

/**
 * The early exchange's answer, taken once and only for the very request this sign-in would make
 * (issue 39): the head's script guesses the product, and a later sign-in (a reload's) asks afresh.
 */
function earlyExchange(jwt: string, body: string): Promise<Response> | undefined {
  const page = globalThis as { rmcloudEarlySignIn?: EarlyExchange };
  const early = page.rmcloudEarlySignIn;
  delete page.rmcloudEarlySignIn;
  return early?.jwt === jwt && early.body === body ? early.response : undefined;
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

/** Spec section 2: an exchange refused with `{"Result": "license"}` sends the user to the license page. */
export function isLicenseError(error: unknown): boolean {
  return (
    error instanceof ApiError &&
    typeof error.body === "object" &&
    error.body !== null &&
    (error.body as { Result?: unknown }).Result === "license"
  );
}

/** A page opened without a fresh exchange (reload, deep link) signs in again with a context token. */
export function installReauthentication(host: Pick<Host, "getContextToken">): void {
  onUnauthorized(async () => {
    await exchangeToken(
      { fullPath: window.location.pathname + window.location.search, method: "GET", product: tokenStore.product() },
      { search: "", host },
    );
    return true;
  });
}

export async function refreshToken(): Promise<void> {
  const { token } = await api.get<TokenResponse>("/api/refresh");
  tokenStore.set(token);
}

export function useTokenRefresh(): void {
  useEffect(() => {
    const timer = setInterval(() => {
      refreshToken().catch((error: unknown) => console.warn("The token refresh failed", error));
    }, TOKEN_REFRESH_MS);
    return () => clearInterval(timer);
  }, []);
}
