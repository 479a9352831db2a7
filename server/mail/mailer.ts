import { randomUUID } from "node:crypto";
import fs from "node:fs/promises";
import path from "node:path";
import nodemailer from "nodemailer";
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

const EMAIL_ADDRESS = /[^\s<>"',;:]+@[^\s<>"',;]+/g;

/** Nodemailer errors list the rejected recipients; logs keep the SMTP answer without the addresses. */
export function mailErrorSummary(err: unknown): Record<string, unknown> {
  const error = err as { message?: unknown; code?: unknown; responseCode?: unknown; command?: unknown };
  return {
    message: String(error?.message ?? err).replace(EMAIL_ADDRESS, "[address]"),
    code: error?.code,
    responseCode: error?.responseCode,
    command: error?.command,
  };
}
