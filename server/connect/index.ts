import { randomUUID } from "node:crypto";
import { FORGE_EXCHANGE_PATH, type ForgeExchangeResponse } from "../../common/forge.js";
import ace from "atlassian-connect-express";
import type { Express, Request, RequestHandler } from "express";
import type { AppDeps } from "../deps.js";
import { noStore } from "../middleware/noStore.js";
import { handle } from "../routes/handle.js";
import { aceLogger } from "./aceLogger.js";
import { KnexInstallationStore } from "./aceStore.js";
import {
  allowForgeCustomUi,
  exchangeForgeInvocation,
  forgeInvocationOf,
  forgeInvocationVerifier,
  requireForgeInvocation,
} from "./forgeRemote.js";
import { recordUninstallation } from "../services/installations/installations.js";
import { lifecycleTokenOf } from "./lifecycle.js";
import { confluenceDescriptor, DESCRIPTOR_PATHS, jiraDescriptor, LIFECYCLE_PATHS, WEBHOOKS } from "./modules.js";
import { dispatchJiraIssueDeleted } from "./webhooks.js";

const STORE_ADAPTER = "rmcloud-knex";
/** Stores waiting for the ACE instance that names them: ACE builds its store from config, by adapter name. */
const pendingStores = new Map<string, KnexInstallationStore>();

ace.store.register(STORE_ADAPTER, (_logger, opts) => {
  const id = (opts as { instance?: string }).instance ?? "";
  const store = pendingStores.get(id);
  if (!store) throw new Error("rmCloud's installation store was not prepared for this add-on");
  pendingStores.delete(id);
  return store as unknown as ace.StoreAdapter;
});

/**
 * ACE reads the install-key server from process.env.CONNECT_KEYS_CDN_URL when it fetches a key. It
 * builds that URL synchronously inside the middleware call, so our config is put in place for that
 * call only: every app in the process (tests start several) verifies against its own key server.
 */
function withConnectKeysCdn(cdnUrl: string | undefined, handler: RequestHandler): RequestHandler {
  return (req, res, next) => {
    const previous = process.env.CONNECT_KEYS_CDN_URL;
    setEnv(cdnUrl);
    try {
      handler(req, res, next);
    } finally {
      setEnv(previous);
    }
  };
}

function setEnv(cdnUrl: string | undefined): void {
  if (cdnUrl === undefined) delete process.env.CONNECT_KEYS_CDN_URL;
  else process.env.CONNECT_KEYS_CDN_URL = cdnUrl;
}

type VerifiedRequest = Request & { context?: { clientKey?: string } };

/**
 * Connect on atlassian-connect-express: ACE serves the Jira descriptor, verifies the signed lifecycle
 * callbacks and webhooks, and keeps installations in our database (KnexInstallationStore). Its
 * development conveniences (auto-registration, descriptor watching, ngrok) stay off.
 *
 * The same server is the remote of the Forge apps (the manifests in forge/jira and forge/confluence):
 * Connect modules reach it exactly as from a Connect app, and Forge invocations sign in at
 * FORGE_EXCHANGE_PATH.
 */
export async function mountConnect(app: Express, deps: AppDeps): Promise<void> {
  const { baseUrl, connectKeysCdnUrl, forge } = deps.config;
  const storeId = randomUUID();
  const store = new KnexInstallationStore(deps.db);
  pendingStores.set(storeId, store);

  const unhandledRejectionListeners = process.listeners("unhandledRejection");
  const addon = await new Promise<ace.AddOn>((resolve) => {
    const created: ace.AddOn = ace(
      app,
      {
        config: {
          descriptorTransformer: () => jiraDescriptor(baseUrl) as unknown as ace.Descriptor,
          [app.get("env")]: {
            localBaseUrl: baseUrl,
            store: { adapter: STORE_ADAPTER, instance: storeId },
            hosts: [],
            watch: false,
            validateDescriptor: false,
            // Our own lifecycle routes below wrap ACE's verification with this app's key server.
            setupInstallRoute: false,
            // The Forge app carrying the Jira descriptor: ACE's Forge support reads it (associateConnect below).
            ...(forge.appIds[0] ? { appId: forge.appIds[0] } : {}),
          },
        },
      },
      aceLogger(deps.logger) as Console,
      // ACE mounts the descriptor and webhook routes on the next tick; resolving after it keeps them before our 404 handler.
      () => resolve(created),
    );
  });
  // ACE adds a process-wide listener per instance that would swallow every unhandled rejection.
  for (const listener of process.listeners("unhandledRejection")) {
    if (!unhandledRejectionListeners.includes(listener)) process.off("unhandledRejection", listener);
  }

  app.get(DESCRIPTOR_PATHS.confluence, (_req, res) => {
    res.json(confluenceDescriptor(baseUrl));
  });

  // ACE verifies the signature (and that the body's clientKey is the token's issuer); we record,
  // each signed callback once, and answer refusals in the spec's format (ACE's own route answers 500 with the error's text).
  app.post(
    LIFECYCLE_PATHS.installed,
    withConnectKeysCdn(connectKeysCdnUrl, addon.verifyInstallation()),
    handle(async (req: VerifiedRequest, res) => {
      await store.saveInstallation(req.body, String(req.body.clientKey), lifecycleTokenOf(req));
      res.status(204).end();
    }),
  );

  app.post(
    LIFECYCLE_PATHS.uninstalled,
    withConnectKeysCdn(connectKeysCdnUrl, addon.authenticateInstall()),
    handle(async (req: VerifiedRequest, res) => {
      const clientKey = req.context?.clientKey;
      if (clientKey) await recordUninstallation(deps.db, clientKey, lifecycleTokenOf(req));
      res.status(204).end();
    }),
  );

  app.post(
    FORGE_EXCHANGE_PATH,
    noStore,
    requireForgeInvocation(forgeInvocationVerifier(forge)),
    // ACE's Forge association: the Forge installation → the site's Connect installation, from our store.
    addon.associateConnect(),
    handle(async (req: VerifiedRequest, res) => {
      const token = await exchangeForgeInvocation(deps.db, deps.config.appTokenSecret, forgeInvocationOf(req), req.context?.clientKey);
      res.json({ token, base_url: baseUrl } satisfies ForgeExchangeResponse);
    }),
  );
  app.use("/api", allowForgeCustomUi(forge.customUiOrigins));

  addon.on(WEBHOOKS.jiraIssueDeleted.event, (_event: string, body: unknown, req: VerifiedRequest) => {
    const clientKey = req.context?.clientKey;
    if (!clientKey) return;
    dispatchJiraIssueDeleted(deps, clientKey, body).catch((error: unknown) => {
      deps.logger.error({ err: error, clientKey }, "jira:issue_deleted webhook failed");
    });
  });
}
