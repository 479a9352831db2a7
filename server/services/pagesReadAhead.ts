export type PageWithLookup<Row, Found> = { rows: Row[]; found: Found };

/**
 * The pages of a keyset read, each with what a slower source (Jira) says about its rows, with
 * `readAhead` pages read beyond the one being consumed: pages are read one after another (each
 * starts after the last row of the one before), and each page's lookup starts as soon as its
 * rows are in, so the lookups of several pages run while an earlier page is written. A page
 * shorter than `pageRows` is the last. Memory holds at most `readAhead + 1` pages.
 */
export async function* pagesReadAhead<Row, Found>(options: {
  pageRows: number;
  readAhead: number;
  readPage: (lastOfPrevious: Row | undefined) => Promise<Row[]>;
  lookUp: (rows: Row[]) => Promise<Found>;
}): AsyncGenerator<PageWithLookup<Row, Found>> {
  const { pageRows, readAhead, readPage, lookUp } = options;
  const pending: Promise<PageWithLookup<Row, Found>>[] = [];
  let previousRows: Promise<Row[] | undefined> = Promise.resolve(undefined);
  const readNextPage = () => {
    const rows = previousRows.then((previous) => (previous && previous.length < pageRows ? [] : readPage(previous?.at(-1))));
    previousRows = rows;
    const page = rows.then(async (rowsOfPage) => ({ rows: rowsOfPage, found: await lookUp(rowsOfPage) }));
    // A failure of a page read ahead surfaces when it is awaited, not as an unhandled rejection meanwhile.
    page.catch(() => undefined);
    pending.push(page);
  };
  for (let i = 0; i <= readAhead; i++) readNextPage();
  for (;;) {
    const page = await (pending.shift() as Promise<PageWithLookup<Row, Found>>);
    if (page.rows.length === 0) return;
    yield page;
    readNextPage();
  }
}
