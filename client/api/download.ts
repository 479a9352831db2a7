/**
 * Saves a file the browser fetches by URL. Storage answers with `Content-Disposition: attachment`,
 * so the page stays where it is; `name` matters only for URLs of this page's own (blob:).
 */
export function saveFile(url: string, name?: string): void {
  const link = document.createElement("a");
  link.href = url;
  if (name) link.download = name;
  link.rel = "noopener";
  document.body.append(link);
  link.click();
  link.remove();
}

/** Saves bytes already read (an answer that needed the app token), under the name the server gave them. */
export function saveBlob(blob: Blob, name: string): void {
  const url = URL.createObjectURL(blob);
  saveFile(url, name);
  // Revoked later rather than at once: the browser reads the object URL after the click returns.
  setTimeout(() => URL.revokeObjectURL(url), 60_000);
}
