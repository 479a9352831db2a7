import type { Logger } from "pino";
import type { HostClient } from "../../connect/hostClient.js";
import type { Db } from "../../db/knex.js";
import { deliveredKeys, markDelivered } from "../../db/notificationDeliveryStore.js";
import type { Delivery } from "../../jobs/defineJob.js";
import type { RequirementSaved } from "../../../common/schemas/requirementSaved.js";

export type NotificationContext = {
  db: Db;
  hostClient: HostClient;
  logger: Logger;
  siteUrl: string;
  delivery: Delivery;
};

/** The idempotency key of one message of one saved revision, e.g. `42:7:comment:10001`. */
export const deliveryKey = (saved: RequirementSaved, channel: "comment" | "email", target: string) =>
  `${saved.requirementId}:${saved.revision}:${channel}:${target}`;

/**
 * Sends unless a delivery of the same key went out before, then remembers it. A crash between the
 * send and the record, or an answer lost after the receiver took the message (Jira stored the comment,
 * then answered 500), leaves the key unrecorded: on a retry (never the first try, which cannot have
 * sent before) `sentBefore` may ask the receiver whether it has the message already, and the key is
 * then recorded without sending. Without it (mail) that one message can repeat.
 */
export async function sendOnce(
  context: NotificationContext,
  saved: RequirementSaved,
  key: string,
  send: () => Promise<void>,
  sentBefore?: () => Promise<boolean>,
): Promise<void> {
  if ((await deliveredKeys(context.db, saved.tenantId, [key])).has(key)) return;
  const found = context.delivery.attempt > 0 && sentBefore !== undefined && (await sentBefore());
  if (!found) await send();
  await markDelivered(context.db, saved.tenantId, key);
}

/** Jira's 4xx answers (a deleted issue, a missing permission) will not change on a retry; the rest may. */
export function isPermanentRefusal(err: unknown): boolean {
  const status = (err as { status?: unknown } | null)?.status;
  return typeof status === "number" && status >= 400 && status < 500 && status !== 408 && status !== 429;
}
