/**
 * How a CSV file is read, by the import dialog (its headers and column values) and by the import
 * job alike, so both see the same header row: a BOM dropped, uneven rows allowed, blank lines and
 * rows of empty cells skipped (a file opening with a blank line has its header on the next one).
 * Records are counted after the skipping: the header is record 1.
 */
export const CSV_READING = {
  bom: true,
  relax_column_count: true,
  skip_empty_lines: true,
  skip_records_with_empty_values: true,
} as const;
