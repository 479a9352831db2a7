import type { SeedUser } from "./seed/users.js";
import type { Site } from "./sites.js";

/** Server-rendered pages of the emulated Jira and Confluence: plain HTML in Atlassian colours. */

export const esc = (value: unknown) =>
  String(value ?? "").replace(/[&<>"']/g, (ch) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[ch] ?? ch);

/** An add-on iframe placeholder that the host bridge turns into a Connect iframe. */
export type Slot = {
  addonKey: string;
  moduleKey: string;
  url: string;
  product: "jira" | "confluence";
  options?: Record<string, unknown>;
  label?: string;
};

export type BridgeConfig = {
  site: { name: string; prefix: string };
  product: "jira" | "confluence";
  contextPath: string;
  user: { accountId: string; displayName: string; timeZone: string };
  context: Record<string, string>;
  addonKey?: string;
  license: "active" | "none";
  /** window._AP.dialogModules: add-on key -> dialog module key -> options. */
  dialogs: Record<string, Record<string, { options: Record<string, unknown> }>>;
  macro?: { pageId: string; macroId?: string };
};

export type LayoutInput = {
  title: string;
  site: Site;
  user: SeedUser;
  users: SeedUser[];
  product: "jira" | "confluence";
  body: string;
  bridge?: BridgeConfig;
};

export const slotHtml = (slot: Slot, style = "") =>
  `<div class="ac-slot" style="${esc(style)}" data-slot="${esc(JSON.stringify(slot))}" data-module-key="${esc(slot.moduleKey)}"></div>`;

export function layout({ title, site, user, users, product, body, bridge }: LayoutInput): string {
  const home = `${site.pathPrefix}/`;
  const userOptions = users
    .map((u) => `<option value="${esc(u.accountId)}"${u.accountId === user.accountId ? " selected" : ""}>${esc(u.displayName)}</option>`)
    .join("");
  const scripts = bridge
    ? `<script src="/_emulator/static/jquery.js"></script>
<script>window.AJS = { $: window.jQuery };</script>
<script src="/_emulator/static/connect-host.js"></script>
<script>window.__EMULATOR__ = ${JSON.stringify(bridge).replace(/</g, "\\u003c")};</script>
<script src="/_emulator/static/host-bridge.js"></script>`
    : "";
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>${esc(title)} - ${product === "jira" ? "Jira" : "Confluence"} (emulated)</title>
<link rel="stylesheet" href="/_emulator/static/emulator.css"></head>
<body class="product-${product}">
<header class="topbar">
  <a class="logo" href="${esc(home)}">${product === "jira" ? "Jira" : "Confluence"} <small>emulated · ${esc(site.name)}</small></a>
  <nav><a href="${esc(home)}">Projects</a><a href="${esc(`${site.pathPrefix}/wiki/spaces/ENG`)}">Confluence</a><a href="/_emulator/outbox">Outbox</a></nav>
  <form class="signin" method="get" action="/_emulator/login">
    <input type="hidden" name="return" value="">
    <label>Signed in as <select name="accountId" onchange="this.form.return.value=location.pathname+location.search;this.form.submit()">${userOptions}</select></label>
  </form>
</header>
<main>${body}</main>
<div id="flags" class="flags" aria-live="polite"></div>
${scripts}
</body></html>`;
}

export function lozenge(category: string, name: string): string {
  return `<span class="lozenge lozenge-${esc(category)}">${esc(name)}</span>`;
}
