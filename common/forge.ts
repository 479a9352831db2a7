/** Where a Forge page exchanges its Forge invocation for rmCloud's app token (docs/decisions.md, Connect on Forge). */
export const FORGE_EXCHANGE_PATH = "/forge/exchange-token";

/** The exchange's answer: the app token and the server to send it to (the Forge app's remote). */
export type ForgeExchangeResponse = { token: string; base_url: string };
