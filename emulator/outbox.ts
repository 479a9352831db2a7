import fs from "node:fs";
import path from "node:path";
import { esc } from "./pages.js";

/** The add-on's local mail outbox (.eml files), shown at /_emulator/outbox. */

export type OutboxEntry = { file: string; subject: string; to: string; from: string; date: string };

function unfoldHeaders(raw: string): Record<string, string> {
  const head = raw.split(/\r?\n\r?\n/)[0] ?? "";
  const headers: Record<string, string> = {};
  let last = "";
  for (const line of head.split(/\r?\n/)) {
    if (/^\s/.test(line) && last) headers[last] += ` ${line.trim()}`;
    else {
      const at = line.indexOf(":");
      if (at > 0) {
        last = line.slice(0, at).toLowerCase();
        headers[last] = line.slice(at + 1).trim();
      }
    }
  }
  return headers;
}

/** Decodes RFC 2047 encoded words (=?utf-8?B?...?= / ?Q?) in a header. */
function decodeWords(value: string): string {
  return value.replace(/=\?([^?]+)\?([bBqQ])\?([^?]*)\?=/g, (_, _charset: string, encoding: string, text: string) =>
    encoding.toUpperCase() === "B"
      ? Buffer.from(text, "base64").toString("utf8")
      : Buffer.from(
          text.replace(/_/g, " ").replace(/=([0-9A-F]{2})/gi, (__, hex: string) => String.fromCharCode(Number.parseInt(hex, 16))),
          "latin1",
        ).toString("utf8"),
  );
}

export function listOutbox(dir: string): OutboxEntry[] {
  if (!fs.existsSync(dir)) return [];
  return fs
    .readdirSync(dir)
    .filter((file) => file.endsWith(".eml"))
    .map((file) => {
      const headers = unfoldHeaders(fs.readFileSync(path.join(dir, file), "utf8"));
      return {
        file,
        subject: decodeWords(headers.subject ?? ""),
        to: decodeWords(headers.to ?? ""),
        from: decodeWords(headers.from ?? ""),
        date: headers.date ?? "",
      };
    })
    .sort((a, b) => fs.statSync(path.join(dir, b.file)).mtimeMs - fs.statSync(path.join(dir, a.file)).mtimeMs);
}

const page = (title: string, body: string) =>
  `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${esc(title)}</title><link rel="stylesheet" href="/_emulator/static/emulator.css"></head><body><header class="topbar"><a class="logo" href="/">Emulator</a><nav><a href="/_emulator/outbox">Outbox</a></nav></header><main>${body}</main></body></html>`;

export function outboxPage(entries: OutboxEntry[]): string {
  const rows = entries
    .map(
      (e) =>
        `<tr><td><a href="/_emulator/outbox/${encodeURIComponent(e.file)}">${esc(e.subject || "(no subject)")}</a></td><td>${esc(e.to)}</td><td>${esc(e.from)}</td><td>${esc(e.date)}</td></tr>`,
    )
    .join("");
  return page(
    "Outbox",
    `<h1>Mail outbox</h1><table class="list outbox"><thead><tr><th>Subject</th><th>To</th><th>From</th><th>Date</th></tr></thead><tbody>${rows || '<tr><td colspan="4" class="muted">No mail has been sent yet.</td></tr>'}</tbody></table>`,
  );
}

/** Shows one message: its headers and its text part (quoted-printable decoded), or the raw source. */
export function outboxMessagePage(dir: string, file: string): string | undefined {
  if (file !== path.basename(file) || !file.endsWith(".eml")) return undefined;
  const full = path.join(dir, file);
  if (!fs.existsSync(full)) return undefined;
  const raw = fs.readFileSync(full, "utf8");
  const headers = unfoldHeaders(raw);
  const textPart =
    /Content-Type:\s*text\/plain[^\n]*\r?\n(?:[^\r\n]+\r?\n)*?\r?\n([\s\S]*?)(?:\r?\n--|$)/i.exec(raw)?.[1] ??
    raw
      .split(/\r?\n\r?\n/)
      .slice(1)
      .join("\n\n");
  const text = /quoted-printable/i.test(raw)
    ? textPart.replace(/=\r?\n/g, "").replace(/=([0-9A-F]{2})/g, (_, hex: string) => String.fromCharCode(Number.parseInt(hex, 16)))
    : textPart;
  return page(
    decodeWords(headers.subject ?? file),
    `<h1>${esc(decodeWords(headers.subject ?? "(no subject)"))}</h1><dl class="fields"><dt>From</dt><dd>${esc(decodeWords(headers.from ?? ""))}</dd><dt>To</dt><dd>${esc(decodeWords(headers.to ?? ""))}</dd><dt>Date</dt><dd>${esc(headers.date ?? "")}</dd></dl><h2>Message</h2><pre class="eml">${esc(text.trim())}</pre><details><summary>Source</summary><pre class="eml">${esc(raw)}</pre></details>`,
  );
}
