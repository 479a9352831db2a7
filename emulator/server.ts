import fs from "node:fs";
import type { Server } from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { gzipSync } from "node:zlib";
import express, { type NextFunction, type Request, type Response, Router } from "express";
import { type ConnectModule, type Descriptor, Descriptors, findModule, modulesOf, signSymmetric, verifyAppJwt } from "./connect.js";
import { type InstallResult, postLifecycle, sendWebhook, signedIframeUrl } from "./install.js";
import { listOutbox, outboxPage, outboxMessagePage } from "./outbox.js";
import { type BridgeConfig, esc, layout, lozenge, type Slot, slotHtml } from "./pages.js";
import { confluenceRestRouter } from "./rest/confluence.js";
import { type Caller, findIssue, jiraRestRouter } from "./rest/jira.js";
import { userMayBrowseProject } from "./rest/permissions.js";
import { findUser, issueTypeIconSvg } from "./rest/shapes.js";
import { seedIssueTypes, seedStatuses } from "./seed/jira.js";
import { avatarSvg, type SeedUser, seedUsers } from "./seed/users.js";
import { DEFAULT_SITE, loadSigningKey, type ProductKey, publicSite, type Site, SiteStore } from "./sites.js";

export type EmulatorOptions = {
  /** 0 picks a free port. */
  port: number;
  host?: string;
  /** The add-on's base URL; its descriptors are read from there. */
  addonUrl: string;
  /** Sites, secrets and the signing key are kept under `${dataDir}/emulator`. */
  dataDir: string;
  /** Where the add-on writes its emails (.eml); default `${dataDir}/outbox`. */
  outboxDir?: string;
  /** Extra generated issues per project key (for scale tests), on top of the seed. */
  seed?: { extraIssues?: Record<string, number> };
  /** Install the add-on into every site once listening (default true). */
  installOnStart?: boolean;
  log?: (message: string) => void;
};

export type Emulator = {
  url: string;
  server: Server;
  sites: SiteStore;
  /** (Re)installs the add-on into every site that is not uninstalled. */
  installAll(): Promise<InstallResult[]>;
  install(name: string): Promise<InstallResult[]>;
  uninstall(name: string): Promise<InstallResult[]>;
  /** Results of the install on start. */
  installResults: InstallResult[];
  stop(): Promise<void>;
};

/** `served`: the call does its work and only its answer is replaced (Jira stored a comment, the caller heard a 500). */
type Fault = { pattern: RegExp; pathPattern: string; status: number; delayMs: number; times: number; served: boolean };

const here = path.dirname(fileURLToPath(import.meta.url));
const acjsDist = path.resolve(here, "../node_modules/atlassian-connect-js/dist");
const SESSION_COOKIE = "emulator_user";

function cookieOf(req: Request, name: string): string | undefined {
  for (const part of (req.headers.cookie ?? "").split(";")) {
    const [key, ...value] = part.trim().split("=");
    if (key === name) return decodeURIComponent(value.join("="));
  }
  return undefined;
}

const sessionUser = (req: Request): SeedUser => findUser(cookieOf(req, SESSION_COOKIE)) ?? (seedUsers[0] as SeedUser);

function addExtraIssues(site: Site, extra: Record<string, number>) {
  for (const [projectKey, count] of Object.entries(extra)) {
    const project = site.content.projects.find((p) => p.key === projectKey);
    if (!project) continue;
    const template = site.content.issues.filter((i) => i.projectId === project.id);
    let number = template.length;
    let id = Math.max(...site.content.issues.map((i) => Number(i.id))) + 1;
    for (let n = 0; n < count; n++) {
      const base = template[n % template.length];
      if (!base) break;
      number++;
      site.content.issues.push({
        ...base,
        id: String(id++),
        key: `${project.key}-${number}`,
        summary: `${base.summary} (${number})`,
        comments: [],
      });
    }
  }
}

export async function startEmulator(options: EmulatorOptions): Promise<Emulator> {
  const log = options.log ?? ((message: string) => console.log(`[emulator] ${message}`));
  const addonUrl = options.addonUrl.replace(/\/$/, "");
  const outboxDir = path.resolve(options.outboxDir ?? path.join(options.dataDir, "outbox"));
  let origin = "";
  const sites = new SiteStore(options.dataDir, () => origin);
  const signingKey = loadSigningKey(options.dataDir);
  let faults: Fault[] = [];
  if (options.seed?.extraIssues) for (const site of sites.list()) addExtraIssues(site, options.seed.extraIssues);

  const descriptors = new Descriptors(addonUrl);
  const descriptor = (product: ProductKey) => descriptors.get(product);

  const app = express();
  app.disable("x-powered-by");

  // ---------------------------------------------------------------- emulator control
  app.get("/_emulator/connect-keys/:kid", (req, res) => {
    if (req.params.kid !== signingKey.kid) return void res.status(404).type("text/plain").send("Unknown key id");
    res.type("text/plain").send(signingKey.publicKey);
  });

  const install = async (name: string) => {
    const site = sites.get(name);
    if (!site) throw new Error(`No site ${name}`);
    const results = await postLifecycle((product) => descriptors.refresh(product), signingKey, site, "installed");
    if (site.uninstalled) sites.update(site, { uninstalled: false });
    for (const r of results) log(`install ${r.site}/${r.product}: ${r.status}${r.message ? ` ${r.message}` : ""}`);
    return results;
  };
  const uninstall = async (name: string) => {
    const site = sites.get(name);
    if (!site) throw new Error(`No site ${name}`);
    const results = await postLifecycle(descriptor, signingKey, site, "uninstalled");
    sites.update(site, { uninstalled: true });
    return results;
  };
  const installAll = async () =>
    (
      await Promise.all(
        sites
          .list()
          .filter((s) => !s.uninstalled)
          .map((s) => install(s.name)),
      )
    ).flat();

  const control = Router();
  control.use(express.json());
  control.get("/sites", (_req, res) => void res.json(sites.list().map(publicSite)));
  control.post("/sites", async (req, res) => {
    const name = String((req.body as { name?: unknown } | undefined)?.name ?? "");
    let site: Site;
    try {
      site = sites.create(name);
    } catch (error) {
      return void res.status(400).json({ message: (error as Error).message });
    }
    if (options.seed?.extraIssues) addExtraIssues(site, options.seed.extraIssues);
    const results = await install(site.name);
    res.status(results.every((r) => r.status === 200 || r.status === 204) ? 201 : 502).json({ ...publicSite(site), install: results });
  });
  const withSite = (handler: (site: Site, req: Request, res: Response) => Promise<void> | void) => async (req: Request, res: Response) => {
    const site = sites.get(String(req.params.name));
    if (!site) return void res.status(404).json({ message: "No such site" });
    await handler(site, req, res);
  };
  control.post(
    "/sites/:name/license",
    withSite((site, req, res) => {
      sites.update(site, { license: (req.body as { active?: unknown } | undefined)?.active === false ? "none" : "active" });
      res.json(publicSite(site));
    }),
  );
  control.post(
    "/sites/:name/uninstall",
    withSite(async (site, _req, res) => void res.json({ ...publicSite(site), uninstall: await uninstall(site.name) })),
  );
  control.post(
    "/sites/:name/install",
    withSite(async (site, _req, res) => void res.json({ ...publicSite(site), install: await install(site.name) })),
  );
  control.post("/faults", (req, res) => {
    const body = (req.body ?? {}) as { pathPattern?: unknown; status?: unknown; delayMs?: unknown; times?: unknown; served?: unknown };
    const pathPattern = String(body.pathPattern ?? "");
    if (!pathPattern) return void res.status(400).json({ message: "pathPattern is required" });
    const fault: Fault = {
      pathPattern,
      pattern: new RegExp(pathPattern),
      status: Number(body.status ?? 500),
      delayMs: Number(body.delayMs ?? 0),
      times: body.times === undefined ? Number.POSITIVE_INFINITY : Number(body.times),
      served: body.served === true,
    };
    faults.push(fault);
    res.status(201).json({ pathPattern, status: fault.status, delayMs: fault.delayMs, times: body.times ?? null, served: fault.served });
  });
  control.delete("/faults", (_req, res) => {
    faults = [];
    res.status(204).end();
  });
  control.get("/login", (req, res) => {
    const user = findUser(String(req.query.accountId ?? ""));
    if (user) res.cookie(SESSION_COOKIE, user.accountId, { httpOnly: true, sameSite: "lax", path: "/" });
    const back = String(req.query.return ?? "/");
    res.redirect(back.startsWith("/") && !back.startsWith("//") ? back : "/");
  });
  control.get("/avatar/:file", (req, res) => {
    const user = findUser(req.params.file.replace(/\.svg$/, ""));
    res.type("image/svg+xml").send(avatarSvg(user ?? { displayName: "?", color: "#6B778C" }));
  });
  control.get("/issuetype/:file", (req, res) => {
    const type = seedIssueTypes.find((t) => t.id === req.params.file.replace(/\.svg$/, ""));
    if (!type) return void res.status(404).end();
    res.type("image/svg+xml").send(issueTypeIconSvg(type));
  });
  control.get("/project-avatar/:file", (req, res) => {
    const key = req.params.file.replace(/\.svg$/, "");
    res.type("image/svg+xml").send(avatarSvg({ displayName: key.slice(0, 2), color: "#5243AA" }));
  });
  control.get("/outbox", (_req, res) => void res.type("html").send(outboxPage(listOutbox(outboxDir))));
  control.get("/outbox/:file", (req, res) => {
    const page = outboxMessagePage(outboxDir, req.params.file);
    if (!page) return void res.status(404).type("text/plain").send("No such message");
    res.type("html").send(page);
  });
  // The host page's own scripts, sent as Jira sends its own (sendMinified).
  const pageScripts: Record<string, string> = {
    "connect-host.js": path.join(acjsDist, "connect-host.js"),
    "jquery.js": path.resolve(here, "../node_modules/jquery/dist/jquery.js"),
    "host-bridge.js": path.join(here, "public/host-bridge.js"),
  };
  const minified = new Map<string, Promise<SentScript>>();
  /** Sends the script named `name`, minified on its first request (`source` read then) and kept for the process. */
  const sendMinified = async (req: Request, res: Response, next: NextFunction, name: string, source: () => string) => {
    try {
      let script = minified.get(name);
      if (!script) {
        script = minifiedScript(name, source());
        minified.set(name, script);
      }
      sendScript(req, res, await script);
    } catch (error) {
      minified.delete(name);
      next(error);
    }
  };
  control.get("/static/emulator.css", (_req, res) => void res.type("text/css").sendFile(path.join(here, "public/emulator.css")));
  control.get("/static/:file", (req, res, next) => {
    const file = pageScripts[req.params.file];
    if (!file) return void res.status(404).end();
    void sendMinified(req, res, next, req.params.file, () => fs.readFileSync(file, "utf8"));
  });
  app.use("/_emulator", control);

  app.get("/favicon.ico", (_req, res) => void res.status(204).end());

  // The host script apps load from `${xdm_e}/atlassian-connect/all.js`, as Jira serves it: minified
  // and compressed, cached by the browser (all-debug.js as it is written).
  const allJs = `${fs.readFileSync(path.join(acjsDist, "iframe.js"), "utf8")}\n${fs.readFileSync(path.join(here, "public/ap-shim.js"), "utf8")}`;
  app.get("/atlassian-connect/all-debug.js", (_req, res) => {
    res.set("Access-Control-Allow-Origin", "*").type("application/javascript").send(allJs);
  });
  app.get("/atlassian-connect/all.js", (req, res, next) => {
    void sendMinified(req, res.set("Access-Control-Allow-Origin", "*"), next, "all.js", () => allJs);
  });

  // ---------------------------------------------------------------- site routes
  const site = Router({ mergeParams: true });

  // Fault injection applies to product REST calls only.
  site.use(async (req: Request, res: Response, next: NextFunction) => {
    if (!/\/rest\//.test(req.path)) return next();
    const fault = faults.find((f) => f.times > 0 && f.pattern.test(req.originalUrl));
    if (!fault) return next();
    fault.times--;
    if (fault.delayMs > 0) await new Promise((resolve) => setTimeout(resolve, fault.delayMs));
    if (fault.status < 400) return next();
    const failure = { errorMessages: [`Injected fault (${fault.status})`], errors: {} };
    if (!fault.served) return void res.status(fault.status).json(failure);
    const answer = res.json.bind(res);
    res.json = () => {
      res.status(fault.status);
      return answer(failure);
    };
    next();
  });

  // REST authentication: the app's JWT, or the signed-in user's session (AP.request).
  site.use(async (req: Request, res: Response, next: NextFunction) => {
    if (!/^\/(wiki\/)?rest\//.test(req.path)) return next();
    const current = res.locals.site as Site;
    const product: ProductKey = req.path.startsWith("/wiki/") ? "confluence" : "jira";
    const authorization = req.headers.authorization;
    if (authorization?.startsWith("JWT ")) {
      try {
        const desc = await descriptor(product).catch(() => undefined);
        const relative = req.originalUrl.slice(current.pathPrefix.length);
        const candidates = product === "confluence" ? [relative, relative.replace(/^\/wiki/, "")] : [relative];
        verifyAppJwt(authorization, current[product], desc?.key, req.method, candidates);
        res.locals.caller = { kind: "app", addonKey: desc?.key ?? "app", displayName: desc?.name ?? "App" } satisfies Caller;
        return next();
      } catch (error) {
        return void res.status(401).json({ errorMessages: [`Authentication failed: ${(error as Error).message}`], errors: {} });
      }
    }
    // The session cookie is set by every emulator page; a caller without it is anonymous.
    if (!cookieOf(req, SESSION_COOKIE)) return void res.status(401).json({ errorMessages: ["You are not authenticated."], errors: {} });
    const accountId = sessionUser(req).accountId;
    res.locals.caller = { kind: "user", accountId } satisfies Caller;
    next();
  });

  // Connect's license REST, Jira's and Confluence's: the site's license as the add-on asks it as the app.
  site.get(["/rest/atlassian-connect/1/addons/:key", "/wiki/rest/atlassian-connect/1/addons/:key"], (req, res) => {
    const current = res.locals.site as Site;
    res.json({
      key: req.params.key,
      version: "1",
      state: "ENABLED",
      license: { active: current.license !== "none", type: "COMMERCIAL", evaluation: false },
    });
  });

  site.use(
    jiraRestRouter({
      issueDeleted: (current, issue, caller) => {
        void (async () => {
          try {
            const desc = await descriptor("jira");
            const user = caller.kind === "user" ? findUser(caller.accountId) : undefined;
            const statuses = await sendWebhook(
              desc,
              current.jira,
              "jira:issue_deleted",
              {
                timestamp: Date.now(),
                webhookEvent: "jira:issue_deleted",
                issue: {
                  id: issue.id,
                  key: issue.key,
                  self: `${current.baseUrl}/rest/api/3/issue/${issue.id}`,
                  fields: { summary: issue.summary, project: { id: issue.projectId } },
                },
                user: user ? { accountId: user.accountId, displayName: user.displayName } : undefined,
              },
              { "issue.id": issue.id, "issue.key": issue.key, "project.id": issue.projectId },
            );
            log(`webhook jira:issue_deleted ${issue.key} -> ${statuses.join(",") || "no subscribers"}`);
          } catch (error) {
            log(`webhook jira:issue_deleted ${issue.key} failed: ${(error as Error).message}`);
          }
        })();
      },
    }),
  );
  site.use(confluenceRestRouter((changed) => sites.saveConfluence(changed)));

  // Bridge calls of the host page itself (same origin, session cookie).
  site.post("/_bridge/iframe-url", express.json(), async (req, res) => {
    const current = res.locals.site as Site;
    const body = (req.body ?? {}) as { moduleKey?: string; product?: ProductKey; context?: Record<string, string>; editor?: boolean };
    const product: ProductKey = body.product === "confluence" ? "confluence" : "jira";
    try {
      const desc = await descriptor(product);
      const found = findModule(desc, String(body.moduleKey));
      const moduleUrl = body.editor ? found?.module.editor?.url : found?.module.url;
      if (!found || !moduleUrl) return void res.status(404).json({ message: `The add-on has no module ${body.moduleKey}` });
      res.json({ url: iframeUrl(req, current, product, desc, found.module, moduleUrl, body.context ?? {}) });
    } catch (error) {
      res.status(502).json({ message: (error as Error).message });
    }
  });
  site.post("/_bridge/token", express.json(), (req, res) => {
    const current = res.locals.site as Site;
    const product: ProductKey = (req.body as { product?: string } | undefined)?.product === "confluence" ? "confluence" : "jira";
    res.json({ token: signSymmetric(current[product], "context-qsh", sessionUser(req)) });
  });
  site.post("/_bridge/macro", express.json(), (req, res) => {
    const current = res.locals.site as Site;
    const body = (req.body ?? {}) as { pageId?: string; macroId?: string; slot?: number; params?: Record<string, string> };
    const page = current.content.pages.find((p) => p.id === body.pageId);
    if (!page) return void res.status(404).json({ message: "No such page" });
    const params = body.params ?? {};
    const known = page.macros.some((m) => m.id === body.macroId);
    // A new array and objects: the versions before keep the parameters they were saved with.
    page.macros = known
      ? page.macros.map((m) => (m.id === body.macroId ? { ...m, params } : { ...m }))
      : [...page.macros.map((m) => ({ ...m })), { id: String(body.macroId), slot: Number(body.slot ?? 0), params }];
    page.versions.push({
      number: page.versions.length + 1,
      byAccountId: sessionUser(req).accountId,
      when: new Date().toISOString(),
      message: "Macro edited",
      macros: page.macros.map((m) => ({ ...m, params: { ...m.params } })),
    });
    sites.saveConfluence(current);
    res.json({ ok: true });
  });

  const hostOrigin = (req: Request) => `${req.protocol}://${req.get("host")}`;

  function iframeUrl(
    req: Request,
    current: Site,
    product: ProductKey,
    desc: Descriptor,
    module: ConnectModule,
    moduleUrl: string,
    context: Record<string, string>,
  ) {
    const user = sessionUser(req);
    return signedIframeUrl({
      descriptor: desc,
      moduleUrl,
      site: current,
      product,
      hostOrigin: hostOrigin(req),
      context,
      user,
      channel: module.key,
    });
  }

  function render(
    req: Request,
    res: Response,
    product: ProductKey,
    title: string,
    body: string,
    bridge?: Omit<BridgeConfig, "site" | "product" | "contextPath" | "user" | "dialogs" | "license"> & { descriptor?: Descriptor },
  ) {
    const current = res.locals.site as Site;
    const user = sessionUser(req);
    if (!cookieOf(req, SESSION_COOKIE)) res.cookie(SESSION_COOKIE, user.accountId, { httpOnly: true, sameSite: "lax", path: "/" });
    // connect-host reads dialog modules' options (header, chrome, size) from window._AP.dialogModules.
    const dialogs: BridgeConfig["dialogs"] = {};
    if (bridge?.descriptor) {
      const options: Record<string, { options: Record<string, unknown> }> = {};
      for (const dialog of modulesOf(bridge.descriptor, "dialogs")) {
        options[dialog.key] = {
          options: { ...(dialog.options ?? {}), header: (dialog.options?.header as { value?: string } | undefined)?.value },
        };
      }
      dialogs[bridge.descriptor.key] = options;
    }
    const config: BridgeConfig | undefined = bridge
      ? {
          site: { name: current.name, prefix: current.pathPrefix },
          product,
          contextPath: product === "jira" ? "" : "/wiki",
          user: { accountId: user.accountId, displayName: user.displayName, timeZone: user.timeZone },
          context: bridge.context,
          addonKey: bridge.addonKey,
          dialogs,
          license: current.license,
          ...(bridge.macro ? { macro: bridge.macro } : {}),
        }
      : undefined;
    res.type("html").send(layout({ title, site: current, user, users: seedUsers, product, body, bridge: config }));
  }

  async function descriptorOrError(res: Response, req: Request, product: ProductKey): Promise<Descriptor | undefined> {
    try {
      return await descriptor(product);
    } catch (error) {
      render(
        req,
        res,
        product,
        "Add-on unavailable",
        `<div class="error-box">The add-on at ${esc(addonUrl)} did not answer its descriptor: ${esc((error as Error).message)}</div>`,
      );
      return undefined;
    }
  }

  function slotFor(
    req: Request,
    res: Response,
    product: ProductKey,
    desc: Descriptor,
    module: ConnectModule,
    context: Record<string, string>,
    options: Record<string, unknown> = {},
  ): Slot {
    const current = res.locals.site as Site;
    return {
      addonKey: desc.key,
      moduleKey: module.key,
      product,
      url: iframeUrl(req, current, product, desc, module, module.url ?? "/", context),
      options,
    };
  }

  // Home: sites, their projects and the add-on's pages.
  site.get("/", async (req, res) => {
    const current = res.locals.site as Site;
    const desc = await descriptor("jira").catch(() => undefined);
    const projectPage = desc ? modulesOf(desc, "jiraProjectPages")[0] : undefined;
    const adminPages = desc
      ? [
          ...modulesOf(desc, "configurePage"),
          ...modulesOf(desc, "postInstallPage"),
          ...modulesOf(desc, "adminPages"),
          ...modulesOf(desc, "generalPages"),
        ]
      : [];
    const viewer = sessionUser(req).accountId;
    const projects = current.content.projects
      .filter((p) => userMayBrowseProject(current, viewer, p))
      .map((p) => {
        const count = current.content.issues.filter((i) => i.projectId === p.id).length;
        const addon =
          projectPage && desc
            ? `<a class="project-addon-link" href="${esc(`${current.pathPrefix}/plugins/servlet/ac/${desc.key}/${projectPage.key}?project.key=${p.key}&project.id=${p.id}`)}">${esc(projectPage.name?.value ?? "Add-on")}</a>`
            : '<span class="muted">add-on not available</span>';
        return `<tr><td><img class="avatar" alt="" src="/_emulator/project-avatar/${esc(p.key)}.svg">${esc(p.name)}</td><td>${esc(p.key)}</td><td>${esc(p.id)}</td><td><a href="${esc(`${current.pathPrefix}/projects/${p.key}`)}">${count} issues</a></td><td>${addon}</td></tr>`;
      })
      .join("");
    const siteRows = sites
      .list()
      .map(
        (s) =>
          `<li><a href="${esc(`${s.pathPrefix}/`)}">${esc(s.name)}</a> <span class="muted">${esc(s.baseUrl)} · licence ${esc(s.license)}${s.uninstalled ? " · uninstalled" : ""}</span></li>`,
      )
      .join("");
    const links = adminPages
      .map(
        (m) =>
          `<li><a href="${esc(`${current.pathPrefix}/plugins/servlet/ac/${desc?.key}/${m.key}`)}">${esc(m.name?.value ?? m.key)}</a></li>`,
      )
      .join("");
    render(
      req,
      res,
      "jira",
      "Projects",
      `<h1>Projects</h1>
<table class="list projects"><thead><tr><th>Name</th><th>Key</th><th>Id</th><th>Issues</th><th>Add-on</th></tr></thead><tbody>${projects}</tbody></table>
<h2>Add-on pages</h2><ul>${links || '<li class="muted">The add-on did not answer its descriptor.</li>'}</ul>
<h2>Confluence</h2><ul>${current.content.spaces.map((s) => `<li><a href="${esc(`${current.pathPrefix}/wiki/spaces/${s.key}`)}">${esc(s.name)}</a></li>`).join("")}</ul>
<h2>Sites</h2><ul>${siteRows}</ul>`,
    );
  });

  site.get("/projects/:key", (req, res) => {
    const current = res.locals.site as Site;
    const project = current.content.projects.find((p) => p.key === req.params.key);
    if (!project || !userMayBrowseProject(current, sessionUser(req).accountId, project))
      return void res.status(404).send("No such project");
    const rows = current.content.issues
      .filter((i) => i.projectId === project.id)
      .map((i) => {
        const type = seedIssueTypes.find((t) => t.id === i.issueTypeId);
        const status = seedStatuses.find((s) => s.id === i.statusId);
        return `<tr><td><img alt="${esc(type?.name)}" src="/_emulator/issuetype/${esc(i.issueTypeId)}.svg"></td><td><a href="${esc(`${current.pathPrefix}/browse/${i.key}`)}">${esc(i.key)}</a></td><td>${esc(i.summary)}</td><td>${status ? lozenge(status.category, status.name) : ""}</td><td>${esc(findUser(i.assigneeId)?.displayName ?? "Unassigned")}</td></tr>`;
      })
      .join("");
    render(
      req,
      res,
      "jira",
      project.name,
      `<h1>${esc(project.name)} <small class="muted">${esc(project.key)}</small></h1><table class="list issues"><thead><tr><th>T</th><th>Key</th><th>Summary</th><th>Status</th><th>Assignee</th></tr></thead><tbody>${rows}</tbody></table>`,
    );
  });

  // Connect page modules: project pages, configure/admin/general/post-install pages.
  const connectPage = (product: ProductKey) => async (req: Request, res: Response) => {
    const current = res.locals.site as Site;
    const desc = await descriptorOrError(res, req, product);
    if (!desc) return;
    const found = findModule(desc, String(req.params.moduleKey));
    if (desc.key !== req.params.appKey || !found?.module.url) return void res.status(404).send("No such add-on module");
    const context: Record<string, string> = {};
    for (const [name, value] of Object.entries(req.query)) if (typeof value === "string") context[name] = value;
    const project = current.content.projects.find((p) => p.id === context["project.id"] || p.key === context["project.key"]);
    if (project) Object.assign(context, { "project.id": project.id, "project.key": project.key });
    const slot = slotFor(req, res, product, desc, found.module, context, { isFullPage: true, height: "calc(100vh - 140px)" });
    render(req, res, product, found.module.name?.value ?? found.module.key, `<div class="page-frame">${slotHtml(slot)}</div>`, {
      context,
      addonKey: desc.key,
      descriptor: desc,
    });
  };
  site.get("/plugins/servlet/ac/:appKey/:moduleKey", connectPage("jira"));
  site.get("/wiki/plugins/servlet/ac/:appKey/:moduleKey", connectPage("confluence"));

  // Issue view with the add-on's right-context panels.
  site.get("/browse/:key", async (req, res) => {
    const current = res.locals.site as Site;
    const issue = findIssue(current, req.params.key);
    const project = issue && current.content.projects.find((p) => p.id === issue.projectId);
    if (!issue || !userMayBrowseProject(current, sessionUser(req).accountId, project))
      return void res.status(404).send("Issue does not exist");
    const type = seedIssueTypes.find((t) => t.id === issue.issueTypeId);
    const status = seedStatuses.find((s) => s.id === issue.statusId);
    const desc = await descriptor("jira").catch(() => undefined);
    const context = {
      "issue.id": issue.id,
      "issue.key": issue.key,
      "issuetype.id": issue.issueTypeId,
      "project.id": issue.projectId,
      "project.key": project?.key ?? "",
    };
    const panels = desc
      ? modulesOf(desc, "webPanels")
          .filter((m) => m.location === "atl.jira.view.issue.right.context")
          .map(
            (m) =>
              `<section class="panel"><h3>${esc(m.name?.value ?? m.key)}</h3>${slotHtml(slotFor(req, res, "jira", desc, m, context, { height: "200px" }))}</section>`,
          )
          .join("")
      : '<p class="muted">The add-on is not available.</p>';
    const comments = issue.comments
      .map(
        (c) =>
          `<div class="comment" data-author-type="${esc(c.author.accountType)}"><div class="meta"><strong>${esc(c.author.displayName)}</strong>${c.author.accountType === "app" ? ' <span class="app-badge">APP</span>' : ""} · ${esc(new Date(c.created).toUTCString())}</div><p>${esc(c.body)}</p></div>`,
      )
      .join("");
    const assignee = findUser(issue.assigneeId);
    render(
      req,
      res,
      "jira",
      `${issue.key} ${issue.summary}`,
      `<p class="muted"><a href="${esc(`${current.pathPrefix}/projects/${project?.key}`)}">${esc(project?.name)}</a> / ${esc(issue.key)}</p>
<div class="issue-layout"><div><h1 class="issue-summary"><img alt="${esc(type?.name)}" src="/_emulator/issuetype/${esc(issue.issueTypeId)}.svg"> ${esc(issue.summary)}</h1>
<h2>Description</h2><p>${esc(issue.description)}</p>
<h2>Comments</h2><div class="comments">${comments || '<p class="muted">No comments yet.</p>'}</div></div>
<aside><dl class="fields"><dt>Status</dt><dd>${status ? lozenge(status.category, status.name) : ""}</dd><dt>Assignee</dt><dd>${assignee ? `<img class="avatar" alt="" src="/_emulator/avatar/${esc(assignee.accountId)}.svg">${esc(assignee.displayName)}` : "Unassigned"}</dd><dt>Type</dt><dd>${esc(type?.name)}</dd><dt>Priority</dt><dd>${esc(issue.priority)}</dd><dt>Components</dt><dd>${esc(
        project?.components
          .filter((c) => issue.componentIds.includes(c.id))
          .map((c) => c.name)
          .join(", ") || "None",
      )}</dd></dl>${panels}</aside></div>`,
      desc ? { context, addonKey: desc.key, descriptor: desc } : undefined,
    );
  });

  // Confluence: space and page views with the add-on's macros.
  site.get("/wiki/spaces/:spaceKey", (req, res) => {
    const current = res.locals.site as Site;
    const space = current.content.spaces.find((s) => s.key === req.params.spaceKey);
    if (!space) return void res.status(404).send("No such space");
    const pages = current.content.pages.filter((p) => p.spaceKey === space.key);
    render(
      req,
      res,
      "confluence",
      space.name,
      `<h1>${esc(space.name)}</h1><p>${esc(space.description)}</p><ul class="pages">${pages.map((p) => `<li><a href="${esc(`${current.pathPrefix}/wiki/spaces/${space.key}/pages/${p.id}`)}">${esc(p.title)}</a></li>`).join("")}</ul>`,
    );
  });
  site.get("/wiki/pages/viewpage.action", (req, res) => {
    const current = res.locals.site as Site;
    const page = current.content.pages.find((p) => p.id === String(req.query.pageId));
    if (!page) return void res.status(404).send("No such page");
    res.redirect(`${current.pathPrefix}/wiki/spaces/${page.spaceKey}/pages/${page.id}`);
  });
  site.get(["/wiki/spaces/:spaceKey/pages/:pageId", "/wiki/spaces/:spaceKey/pages/:pageId/:title"], async (req, res) => {
    const current = res.locals.site as Site;
    const page = current.content.pages.find((p) => p.id === req.params.pageId && p.spaceKey === req.params.spaceKey);
    if (!page) return void res.status(404).send("No such page");
    const desc = await descriptor("confluence").catch(() => undefined);
    const macros = desc ? modulesOf(desc, "dynamicContentMacros") : [];
    const version = page.versions[page.versions.length - 1];
    const context: Record<string, string> = {
      "page.id": page.id,
      "content.id": page.id,
      "space.key": page.spaceKey,
      "content.type": "page",
      "page.type": "page",
      "content.version": String(version?.number ?? 1),
      "page.version": String(version?.number ?? 1),
    };
    const editorSpec = (macro: ConnectModule, mode: "insert" | "edit") => {
      const titles = macro.editor as
        | { insertTitle?: { value?: string }; editTitle?: { value?: string }; width?: string; height?: string }
        | undefined;
      return {
        addonKey: desc?.key,
        moduleKey: macro.key,
        title: (mode === "insert" ? titles?.insertTitle?.value : titles?.editTitle?.value) ?? macro.name?.value ?? macro.key,
        submitText: mode === "insert" ? "Insert" : "Save",
        width: titles?.width,
        height: titles?.height,
      };
    };
    const macroHtml = (macroId: string, slot: number, params: Record<string, string>) => {
      const macro = macros[slot];
      if (!macro || !desc) return "";
      const macroContext = {
        ...context,
        "macro.id": macroId,
        "macro.hash": macroId,
        "macro.body": "",
        "output.type": "display",
        ...params,
      };
      const editor = macro.editor?.url
        ? `<button class="button" data-open-macro-editor="${esc(JSON.stringify({ ...editorSpec(macro, "edit"), pageId: page.id, macroId, slot, params, context: macroContext }))}">Edit</button>`
        : "";
      return `<div class="macro" data-macro-key="${esc(macro.key)}"><div class="macro-toolbar"><span>${esc(macro.name?.value ?? macro.key)}</span>${editor}</div>${slotHtml(slotFor(req, res, "confluence", desc, macro, macroContext, { height: "150px" }))}</div>`;
    };
    const existing = page.macros.map((m) => macroHtml(m.id, m.slot, m.params)).join("");
    const insert = macros
      .map((m, slot) => {
        const macroId = `new-${page.id}-${slot}-${page.macros.length}`;
        return desc && m.editor?.url
          ? `<button class="button" data-open-macro-editor="${esc(JSON.stringify({ ...editorSpec(m, "insert"), pageId: page.id, macroId, slot, params: {}, context: { ...context, "macro.id": macroId } }))}">Insert ${esc(m.name?.value ?? m.key)}</button>`
          : "";
      })
      .join(" ");
    const author = findUser(version?.byAccountId);
    render(
      req,
      res,
      "confluence",
      page.title,
      `<p class="muted"><a href="${esc(`${current.pathPrefix}/wiki/spaces/${page.spaceKey}`)}">${esc(page.spaceKey)}</a></p><h1>${esc(page.title)}</h1><p class="muted">v${version?.number} by ${esc(author?.displayName)} · ${esc(version?.when)}</p>${page.body}${existing}<p>${insert}</p><h2>Comments</h2><div class="comments">${(page.comments ?? []).map((c) => `<div class="comment"><div class="meta"><strong>${esc(c.authorName)}</strong> · ${esc(new Date(c.created).toUTCString())}</div>${c.body}</div>`).join("") || '<p class="muted">No comments yet.</p>'}</div>`,
      desc ? { context, addonKey: desc.key, descriptor: desc, macro: { pageId: page.id } } : undefined,
    );
  });

  const resolveSite = (nameOf: (req: Request) => string) => (req: Request, res: Response, next: NextFunction) => {
    const found = sites.get(nameOf(req));
    if (!found) return void res.status(404).type("text/plain").send("No such site");
    res.locals.site = found;
    next();
  };
  app.use(
    "/sites/:site",
    resolveSite((req) => String(req.params.site)),
    site,
  );
  app.use(
    resolveSite(() => DEFAULT_SITE),
    site,
  );

  const server = await new Promise<Server>((resolve) => {
    const listening = options.host
      ? app.listen(options.port, options.host, () => resolve(listening))
      : app.listen(options.port, () => resolve(listening));
  });
  const { port } = server.address() as AddressInfo;
  origin = `http://localhost:${port}`;
  log(`listening on ${origin}`);

  const installResults = options.installOnStart === false ? [] : await installAll();

  return {
    url: origin,
    server,
    sites,
    installAll,
    install,
    uninstall,
    installResults,
    stop: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

type SentScript = { code: string; gzipped: Buffer };

/**
 * A script as Atlassian's hosts send theirs (all.js from their CDN, the page's own), minified once
 * per emulator process by Vite's minifier (a development dependency, as the emulator is): the
 * unminified builds are twice the script to parse, which a page of the real Jira never pays, and the
 * measured pages share the machine with it.
 */
async function minifiedScript(name: string, source: string): Promise<SentScript> {
  const { minify } = await import("vite");
  const { code } = await minify(name, source);
  return { code, gzipped: gzipSync(code) };
}

/** Compressed when the browser accepts it, and cached by it for an hour. */
function sendScript(req: Request, res: Response, script: SentScript): void {
  res.set("Cache-Control", "public, max-age=3600").vary("Accept-Encoding").type("application/javascript");
  if (req.acceptsEncodings("gzip") === "gzip") res.set("Content-Encoding", "gzip").send(script.gzipped);
  else res.send(script.code);
}
