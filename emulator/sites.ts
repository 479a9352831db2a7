import { generateKeyPairSync, randomBytes, randomUUID } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { type SeedPage, type SeedSpace, seedConfluence } from "./seed/confluence.js";
import { type SeedIssue, type SeedProject, seedJira } from "./seed/jira.js";
import { type SiteGrants, seedGrants } from "./seed/grants.js";

export type ProductKey = "jira" | "confluence";
export type ProductInstall = { clientKey: string; sharedSecret: string };
/** What survives a restart: a site's identity, its secrets and its licence. */
export type StoredSite = {
  name: string;
  cloudId: string;
  jira: ProductInstall;
  confluence: ProductInstall;
  license: "active" | "none";
  uninstalled?: boolean;
};
/**
 * A site's Jira and Confluence content. Jira's is seeded afresh on every start (comments and deletions
 * are not kept); Confluence's spaces and pages (versions, macros and their parameters) are kept in
 * `${DATA_DIR}/emulator/confluence-{site}.json` once a page changes.
 */
export type SiteContent = {
  projects: SeedProject[];
  issues: SeedIssue[];
  spaces: SeedSpace[];
  pages: SeedPage[];
  nextCommentId: number;
  /** Who may do what on this site, from the seed users; a test may change it while the emulator runs. */
  grants: SiteGrants;
};
export type Site = StoredSite & { baseUrl: string; pathPrefix: string; content: SiteContent };

export const DEFAULT_SITE = "default";
const SITE_NAME = /^[a-z0-9][a-z0-9-]{0,40}$/;

function newInstall(product: ProductKey): ProductInstall {
  return { clientKey: `${product}:${randomUUID()}`, sharedSecret: randomBytes(32).toString("base64url") };
}

function seedContent(): SiteContent {
  return { ...seedJira(), ...seedConfluence(), nextCommentId: 90000, grants: seedGrants() };
}

export class SiteStore {
  private readonly file: string;
  private readonly sites = new Map<string, Site>();

  constructor(
    dataDir: string,
    private readonly origin: () => string,
  ) {
    this.file = path.join(dataDir, "emulator", "sites.json");
    const stored: StoredSite[] = fs.existsSync(this.file) ? JSON.parse(fs.readFileSync(this.file, "utf8")) : [];
    for (const site of stored) this.sites.set(site.name, this.hydrate(site));
    if (!this.sites.has(DEFAULT_SITE)) this.create(DEFAULT_SITE);
  }

  private hydrate(stored: StoredSite): Site {
    const pathPrefix = stored.name === DEFAULT_SITE ? "" : `/sites/${stored.name}`;
    const store = this;
    const content = seedContent();
    const confluenceFile = this.confluenceFile(stored.name);
    if (fs.existsSync(confluenceFile)) {
      const kept = JSON.parse(fs.readFileSync(confluenceFile, "utf8")) as Pick<SiteContent, "spaces" | "pages">;
      content.spaces = kept.spaces;
      content.pages = kept.pages;
    }
    return {
      ...stored,
      pathPrefix,
      get baseUrl() {
        return `${store.origin()}${pathPrefix}`;
      },
      content,
    };
  }

  private confluenceFile(name: string): string {
    return path.join(path.dirname(this.file), `confluence-${name}.json`);
  }

  /** Keeps the site's Confluence spaces and pages for the next start. */
  saveConfluence(site: Site): void {
    const file = this.confluenceFile(site.name);
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(file, `${JSON.stringify({ spaces: site.content.spaces, pages: site.content.pages })}\n`);
  }

  list(): Site[] {
    return [...this.sites.values()];
  }

  get(name: string): Site | undefined {
    return this.sites.get(name);
  }

  /** Creates a fresh site; an existing name answers the site as it is. */
  create(name: string): Site {
    if (!SITE_NAME.test(name)) throw new Error("A site name is 1-41 lowercase letters, digits or dashes");
    const existing = this.sites.get(name);
    if (existing) return existing;
    const site = this.hydrate({
      name,
      cloudId: randomUUID(),
      jira: newInstall("jira"),
      confluence: newInstall("confluence"),
      license: "active",
    });
    this.sites.set(name, site);
    this.save();
    return site;
  }

  update(site: Site, change: Partial<Pick<StoredSite, "license" | "uninstalled">>): void {
    Object.assign(site, change);
    this.save();
  }

  private save(): void {
    const stored: StoredSite[] = this.list().map(({ name, cloudId, jira, confluence, license, uninstalled }) => ({
      name,
      cloudId,
      jira,
      confluence,
      license,
      uninstalled,
    }));
    fs.mkdirSync(path.dirname(this.file), { recursive: true });
    fs.writeFileSync(this.file, `${JSON.stringify(stored, null, 2)}\n`, { mode: 0o600 });
  }
}

export function publicSite(site: Site) {
  return { name: site.name, baseUrl: site.baseUrl, jira: site.jira, confluence: site.confluence, license: site.license };
}

export type SigningKey = { kid: string; privateKey: string; publicKey: string };

/** The emulator's own install-signing key, kept with its sites so restarts stay verifiable. */
export function loadSigningKey(dataDir: string): SigningKey {
  const file = path.join(dataDir, "emulator", "connect-key.json");
  if (fs.existsSync(file)) return JSON.parse(fs.readFileSync(file, "utf8")) as SigningKey;
  const { privateKey, publicKey } = generateKeyPairSync("rsa", {
    modulusLength: 2048,
    publicKeyEncoding: { type: "spki", format: "pem" },
    privateKeyEncoding: { type: "pkcs8", format: "pem" },
  });
  const key: SigningKey = { kid: `emulator-${randomUUID()}`, privateKey, publicKey };
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, JSON.stringify(key), { mode: 0o600 });
  return key;
}
