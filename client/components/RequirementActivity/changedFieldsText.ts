/** The API's comma-separated field names, readable. */
export function changedFieldsText(changedFields: string | null | undefined): string {
  const names = (changedFields ?? "")
    .split(",")
    .map((name) => name.trim())
    .filter(Boolean);
  return names.length === 0 ? "None" : names.join(", ");
}
