/**
 * A Storage kept in memory for as long as the page: for tests that run without a browser, and for
 * a page whose browser denies it its own (pageStorage).
 */
export function memoryStorage(): Storage {
  const items = new Map<string, string>();
  return {
    get length() {
      return items.size;
    },
    clear: () => items.clear(),
    getItem: (key) => items.get(key) ?? null,
    key: (index) => [...items.keys()][index] ?? null,
    removeItem: (key) => void items.delete(key),
    setItem: (key, value) => void items.set(key, String(value)),
  };
}

type StorageKind = "sessionStorage" | "localStorage";
const standIns = new Map<StorageKind, Storage>();

/**
 * The page's session or local storage. rmCloud's pages are iframes of another site (Jira's or
 * Confluence's), and a browser that blocks third-party site data (Chrome's incognito windows by
 * default, or by choice) denies such a frame its storage: reading `sessionStorage` throws a
 * SecurityError, which left the issue panel and the requirements page on their loading error.
 * There the app keeps what it stores in memory instead: the token is asked again after a reload,
 * from the JWT the host puts in the iframe's address, and hidden matrix columns are forgotten.
 */
export function pageStorage(kind: StorageKind): Storage {
  try {
    const storage = globalThis[kind];
    if (storage) return storage;
  } catch {
    // Denied: the stand-in below.
  }
  let standIn = standIns.get(kind);
  if (!standIn) {
    standIn = memoryStorage();
    standIns.set(kind, standIn);
  }
  return standIn;
}
