import { readFileSync } from "node:fs";
import type { HostCall, HostClient } from "../../server/connect/hostClient.js";
import { insertUpload } from "../../server/db/uploadStore.js";
import type { AppDeps } from "../../server/deps.js";
import { newStoredFileName, storageKey } from "../../server/storage/objectStorage.js";
import { isPermissionCheck, permissionCheckAnswer } from "./fakeJira.js";

/** The CSV fixtures shaped like Jira's own export (copied from the shared fixtures). */
export const csvFixture = (name: "jira-export-valid.csv" | "jira-export-one-bad-row.csv") =>
  readFileSync(new URL(`../fixtures/csv/${name}`, import.meta.url));

/** The fixture project's components and statuses, as the import dialog sends the host's lists. */
export const PUMP_COMPONENTS = [
  { id: "10100", name: "Dosing", lead: { accountId: "557058:dana" } },
  { id: "10101", name: "Firmware" },
  { id: "10102", name: "Alarms", lead: { accountId: "557058:jonas" } },
  { id: "10103", name: "UI" },
  { id: "10104", name: "Logging" },
];
export const PUMP_STATUSES = [
  { id: "1", name: "To Do" },
  { id: "3", name: "In Progress" },
  { id: "10001", name: "Done" },
];

/** What the browser does before an import, without HTTP: an 'import' upload of the site, then its bytes in storage. */
export async function putImportFile(
  deps: Pick<AppDeps, "db" | "storage">,
  tenantId: string,
  content: string | Buffer,
  originalFileName = "requirements.csv",
): Promise<string> {
  const uuidFileName = newStoredFileName(originalFileName);
  await insertUpload(deps.db, tenantId, {
    uuidFileName,
    operation: "import",
    originalFileName,
    contentType: "text/csv",
    createdBy: "557058:test-user",
  });
  await deps.storage.putObject(storageKey(tenantId, "imports", uuidFileName), content, "text/csv");
  return uuidFileName;
}

/**
 * Jira as the export reads it for the fixture project: its components and statuses, issue keys
 * (PUMP-<id>) and display names ("User <accountId>").
 */
export const pumpHostClient = (): HostClient => ({
  call: async <T>(_tenantId: string, _product: string, call: HostCall): Promise<T> => {
    if (isPermissionCheck(call)) return permissionCheckAnswer(call) as T;
    if (/\/project\/\d+\/components$/.test(call.path)) return PUMP_COMPONENTS as T;
    if (/\/project\/\d+\/statuses$/.test(call.path)) return [{ id: "10001", name: "Story", statuses: PUMP_STATUSES }] as T;
    if (call.path === "/rest/api/3/issue/bulkfetch") {
      const ids = (call.body as { issueIdsOrKeys: string[] }).issueIdsOrKeys;
      return { issues: ids.map((id) => ({ id, key: `PUMP-${id}` })) } as T;
    }
    if (call.path.startsWith("/rest/api/3/user/bulk")) {
      const ids = new URLSearchParams(call.path.split("?")[1]).getAll("accountId");
      return { values: ids.map((accountId) => ({ accountId, displayName: `User ${accountId}` })) } as T;
    }
    throw new Error(`unexpected host call ${call.path}`);
  },
});
