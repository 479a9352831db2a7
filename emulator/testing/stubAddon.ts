import type { Server } from "node:http";
import type { AddressInfo } from "node:net";
import { createQueryStringHash, decodeAsymmetric, decodeSymmetric, fromMethodAndUrl, getKeyId, SymmetricAlgorithm } from "atlassian-jwt";
import express from "express";

/**
 * A minimal Connect add-on for the emulator's own tests: descriptors, verified lifecycle
 * callbacks and webhooks, and a page that loads the host's all.js. It stands in for the real
 * add-on so the emulator's contract is tested on its own.
 */

export type Installation = { clientKey: string; sharedSecret: string; baseUrl: string; productType: string; eventType: string };
export type StubAddon = {
  url: string;
  installs: Installation[];
  rejected: string[];
  webhooks: { path: string; body: unknown; verified: boolean }[];
  /** How often each descriptor was read. */
  descriptorReads: { jira: number; confluence: number };
  /** Publishes a new version of the descriptors: the project page's URL carries `version={version}`. */
  release(version: number): void;
  /** While starting, the descriptors answer 503, as an add-on that is not up yet would fail. */
  setStarting(starting: boolean): void;
  stop(): Promise<void>;
};

const PAGE = `<!doctype html><html><head><meta charset="utf-8"><title>stub</title></head><body>
<h1 id="title">Stub add-on</h1><pre id="log"></pre>
<script>
  const params = new URLSearchParams(location.search);
  const s = document.createElement('script');
  s.src = params.get('xdm_e') + '/atlassian-connect/all.js';
  s.onload = () => { document.body.dataset.ap = 'loaded'; };
  document.head.append(s);
</script></body></html>`;

export async function startStubAddon(keysUrl: () => string, key = "rmcloud-stub"): Promise<StubAddon> {
  const installs: Installation[] = [];
  const rejected: string[] = [];
  const webhooks: StubAddon["webhooks"] = [];
  const descriptorReads = { jira: 0, confluence: 0 };
  let version = 1;
  let starting = false;
  const app = express();
  app.use(express.json());
  let url = "";

  const modules = () => ({
    jiraProjectPages: [
      {
        key: "requirements",
        name: { value: "Requirements" },
        url: `/page?projectId={project.id}&projectKey={project.key}&version=${version}`,
        iconUrl: "/icon.svg",
      },
    ],
    webPanels: [
      {
        key: "issue-panel",
        name: { value: "Requirements" },
        location: "atl.jira.view.issue.right.context",
        url: "/page?issueId={issue.id}&projectId={project.id}",
      },
    ],
    dialogs: [{ key: "link-dialog", url: "/page?dialog=1", options: { chrome: true, header: { value: "Update linked requirements" } } }],
    configurePage: { key: "configuration", name: { value: "Configuration" }, url: "/page?configuration=1" },
    webhooks: [{ event: "jira:issue_deleted", url: "/webhook/issue-deleted" }],
  });
  const confluenceModules = {
    dynamicContentMacros: [
      {
        key: "linked-macro",
        name: { value: "Linked requirements" },
        url: "/page?macro={macro.id}&pageId={page.id}&ids={ids}",
        editor: { url: "/page?editor=1", width: "600px", height: "400px" },
        parameters: [{ identifier: "ids" }],
      },
    ],
  };
  const descriptor = (product: "jira" | "confluence") => ({
    key,
    name: "rmCloud stub",
    baseUrl: url,
    authentication: { type: "jwt" },
    apiMigrations: { "signed-install": true },
    lifecycle: { installed: "/installed", uninstalled: "/uninstalled" },
    scopes: ["READ", "WRITE"],
    modules: product === "jira" ? modules() : confluenceModules,
  });
  for (const product of ["jira", "confluence"] as const) {
    app.get(product === "jira" ? "/atlassian-connect.json" : "/confluence/atlassian-connect.json", (_req, res) => {
      descriptorReads[product]++;
      if (starting) res.status(503).end();
      else res.json(descriptor(product));
    });
  }

  const lifecycle = async (req: express.Request, res: express.Response) => {
    try {
      const token = String(req.headers.authorization ?? "").replace(/^JWT /, "");
      const kid = getKeyId(token) as string;
      const pem = await (await fetch(`${keysUrl()}/${kid}`)).text();
      const claims = decodeAsymmetric(token, pem, "RS256" as never) as { aud: string[]; iss: string; qsh: string };
      if (claims.aud[0] !== url) throw new Error("wrong aud");
      if (claims.qsh !== createQueryStringHash(fromMethodAndUrl("POST", req.path))) throw new Error("wrong qsh");
      if (claims.iss !== req.body.clientKey) throw new Error("wrong iss");
      installs.push(req.body as Installation);
      res.status(204).end();
    } catch (error) {
      rejected.push((error as Error).message);
      res.status(401).json({ message: (error as Error).message });
    }
  };
  app.post("/installed", lifecycle);
  app.post("/uninstalled", lifecycle);

  app.post("/webhook/issue-deleted", (req, res) => {
    const token = String(req.headers.authorization ?? "").replace(/^JWT /, "");
    let verified = false;
    try {
      const unverified = decodeSymmetric(token, "", SymmetricAlgorithm.HS256, true) as { iss: string };
      const install = [...installs].reverse().find((i) => i.clientKey === unverified.iss);
      const claims = decodeSymmetric(token, install?.sharedSecret ?? "", SymmetricAlgorithm.HS256) as { qsh: string };
      verified = claims.qsh === createQueryStringHash(fromMethodAndUrl("POST", req.originalUrl));
    } catch {
      verified = false;
    }
    webhooks.push({ path: req.path, body: req.body, verified });
    res.status(204).end();
  });

  app.get("/page", (_req, res) => void res.type("html").send(PAGE));

  const server = await new Promise<Server>((resolve) => {
    const listening = app.listen(0, () => resolve(listening));
  });
  url = `http://localhost:${(server.address() as AddressInfo).port}`;
  return {
    url,
    installs,
    rejected,
    webhooks,
    descriptorReads,
    release: (next) => {
      version = next;
    },
    setStarting: (on) => {
      starting = on;
    },
    stop: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
