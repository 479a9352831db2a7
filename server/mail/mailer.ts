import { randomUUID } from "node:crypto";
import fs from "node:fs/promises";
import path from "node:path";
import nodemailer from "nodemailer";
import type { Logger } from "pino";
import type { Config } from "../config.js";

export type MailMessage = { to: string; subject: string; text: string; html: string };

export interface Mailer {
  /** Rejects when the mail server refuses or cannot be reached. */
  send(message: MailMessage): Promise<void>;
}

/**
 * SMTP when SMTP_URL is set; otherwise each message is written as an .eml file into
 * the outbox folder (OUTBOX_DIR), which the emulator lists, so the embedded setup needs no mail server.
 */
export function createMailer(config: Pick<Config, "smtpUrl" | "mailFrom" | "outboxDir">): Mailer {
  if (config.smtpUrl) {
    const transport = nodemailer.createTransport({
      url: config.smtpUrl,
      // A hanging server must not keep retries of many messages open for minutes.
      connectionTimeout: 10_000,
      greetingTimeout: 10_000,
      socketTimeout: 20_000,
    });
    return {
      send: async (message) => {
        await transport.sendMail({ from: config.mailFrom, ...message });
      },
    };
  }
  const outbox = config.outboxDir;
  const transport = nodemailer.createTransport({ streamTransport: true, buffer: true });
  return {
    send: async (message) => {
      const info = await transport.sendMail({ from: config.mailFrom, ...message });
      await fs.mkdir(outbox, { recursive: true });
      const fileName = `${new Date().toISOString().replace(/[:.]/g, "-")}-${randomUUID().slice(0, 8)}.eml`;
      await fs.writeFile(path.join(outbox, fileName), info.message as Buffer);
    },
  };
}

/** Waits between attempts: the first try and three retries over about half a minute. */
export const DEFAULT_RETRY_DELAYS_MS = [2_000, 8_000, 20_000];

/**
 * Sends with retries and never rejects: a mail problem must not surface in the save that
 * caused it. Returns whether the message went out; a final failure is logged as an error
 * (without the address: pass a child logger that names the recipient by account id).
 */
export async function sendWithRetry(
  mailer: Mailer,
  message: MailMessage,
  logger: Logger,
  delaysMs: readonly number[] = DEFAULT_RETRY_DELAYS_MS,
): Promise<boolean> {
  for (let attempt = 0; ; attempt++) {
    try {
      await mailer.send(message);
      return true;
    } catch (err) {
      const delay = delaysMs[attempt];
      if (delay === undefined) {
        logger.error({ err: mailErrorSummary(err), subject: message.subject, attempts: attempt + 1 }, "email not sent");
        return false;
      }
      logger.warn({ err: mailErrorSummary(err), attempt: attempt + 1, retryInMs: delay }, "email failed, will retry");
      await new Promise((resolve) => setTimeout(resolve, delay));
    }
  }
}

const EMAIL_ADDRESS = /[^\s<>"',;:]+@[^\s<>"',;]+/g;

/** Nodemailer errors list the rejected recipients; logs keep the SMTP answer without the addresses. */
function mailErrorSummary(err: unknown): Record<string, unknown> {
  const error = err as { message?: unknown; code?: unknown; responseCode?: unknown; command?: unknown };
  return {
    message: String(error?.message ?? err).replace(EMAIL_ADDRESS, "[address]"),
    code: error?.code,
    responseCode: error?.responseCode,
    command: error?.command,
  };
}
