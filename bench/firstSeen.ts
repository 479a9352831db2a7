import type { BrowserContext, Frame, Page } from "playwright-core";

/**
 * When the user first sees an element, told by the page itself. The bench process also runs the
 * add-on and the emulated Jira: once the first rows are on screen it is busy answering the page's
 * next requests (the matrix's Jira searches, the coverage), and a wait through Playwright learns of
 * the rows only when its event loop gets to Chromium's message, up to 1.7 s late on a loaded
 * machine (the page had its first matrix cell at 1,561 ms from navigation; Playwright saw it at
 * 1,876). So each frame of the page watches for the element itself and notes the time of the
 * first frame painted with it, on the browser's clock, as are the navigations it is set against.
 */
export type Target = { selector: string; text?: RegExp };

/** What a page's watcher logs when the element has shown, then the time and the page's origin, space-separated. */
const SEEN_MESSAGE = "rmcloud-first-seen";

/**
 * The page's script that watches for `target` and sets `window[into]` to the time (ms since the
 * epoch) of the first frame painted with it; with `after`, only once an event of that type has
 * reached the page, and then to the ms from that event to the paint. A string, not a function: a
 * function's transpiled text would name the bench's own helpers.
 */
function watcherScript(target: Target, into: string, after?: "input" | "keydown" | "scroll"): string {
  const text = target.text ? `new RegExp(${JSON.stringify(target.text.source)}, ${JSON.stringify(target.text.flags)})` : "null";
  return `(() => {
    const selector = ${JSON.stringify(target.selector)};
    const text = ${text};
    const into = ${JSON.stringify(into)};
    const after = ${JSON.stringify(after ?? null)};
    let startedAt = after ? undefined : 0;
    let waiting = false;
    const matching = () => [...document.querySelectorAll(selector)].filter((element) => !text || text.test(element.textContent || ""));
    const shown = () => matching().some((element) => element.getClientRects().length > 0);
    // After the animation frame the element is laid out in, once that frame has been painted.
    const noteWhenPainted = () => {
      waiting = true;
      requestAnimationFrame(() => {
        const channel = new MessageChannel();
        channel.port1.onmessage = () => {
          waiting = false;
          if (!shown()) return;
          window[into] = performance.timeOrigin + performance.now() - startedAt;
          if (!after) console.debug([${JSON.stringify(SEEN_MESSAGE)}, window[into], location.origin].join(" "));
          observer.disconnect();
        };
        channel.port2.postMessage(null);
      });
    };
    const observer = new MutationObserver(() => {
      if (startedAt !== undefined && !waiting && matching().length > 0) noteWhenPainted();
    });
    if (after) {
      window[into] = undefined;
      addEventListener(after, (event) => { startedAt = performance.timeOrigin + event.timeStamp; }, { capture: true, once: true });
    }
    observer.observe(document, { childList: true, subtree: true, characterData: true });
  })();`;
}

/** The first-seen times the pages of a context have logged, each with its page and the origin of the document (the page's or one of its frames') that logged it. */
type Sightings = { seen: { page: Page | null; origin: string; at: number }[]; told: Set<() => void> };
const sightings = new WeakMap<BrowserContext, Sightings>();

/**
 * Every page of `context` notes when `target` first shows (call before opening the page), and logs
 * it: the bench learns it from the log, so nothing of Playwright's runs in the page while it loads
 * (a wait in the page installs Playwright's injected script there: 14 to 17 ms of the frame's main
 * thread in a trace of the issue panel's load, which a user's browser does not spend).
 */
export async function watchFirstSeen(context: BrowserContext, target: Target): Promise<void> {
  const record: Sightings = { seen: [], told: new Set() };
  sightings.set(context, record);
  context.on("console", (message) => {
    const [text, at, origin = ""] = message.text().split(" ");
    if (text !== SEEN_MESSAGE) return;
    record.seen.push({ page: message.page(), origin, at: Number(at) });
    for (const tell of record.told) tell();
  });
  await context.addInitScript(watcherScript(target, "__firstSeenAt"));
}

/**
 * Ms from the first `event` that `act` makes reach `frame` (a key pressed, text typed) until the
 * first frame painted with `target`, which must not be there before.
 */
export async function msFromEventUntilSeen(
  frame: Frame,
  event: "input" | "keydown" | "scroll",
  target: Target,
  act: () => Promise<void>,
  timeout = 120_000,
): Promise<number> {
  await frame.evaluate(watcherScript(target, "__seenAfterEvent", event));
  await act();
  return noted(frame, "__seenAfterEvent", timeout);
}

/** When the watched element was first painted in `frame` (its page's context watched), in ms since the epoch on the browser's clock; waits for it. */
export async function firstSeenAt(frame: Frame, timeout = 120_000): Promise<number> {
  const record = sightings.get(frame.page().context());
  if (!record) throw new Error("firstSeenAt needs watchFirstSeen on the page's context");
  const page = frame.page();
  // A frame just added may not have navigated yet (no address, or about:blank): its sighting is looked for again once it has.
  const inFrame = () => {
    const origin = URL.canParse(frame.url()) ? new URL(frame.url()).origin : "null";
    return origin === "null" ? undefined : record.seen.find((sighting) => sighting.page === page && sighting.origin === origin)?.at;
  };
  return new Promise<number>((resolve, reject) => {
    const stop = () => {
      clearTimeout(timer);
      record.told.delete(tell);
      page.off("framenavigated", tell);
    };
    const tell = () => {
      const at = inFrame();
      if (at === undefined) return;
      stop();
      resolve(at);
    };
    const timer = setTimeout(() => {
      stop();
      reject(new Error(`The watched element did not show in ${frame.url()} within ${timeout} ms`));
    }, timeout);
    record.told.add(tell);
    page.on("framenavigated", tell);
    tell();
  });
}

/** The figure a watcher noted in `frame` under `name`, once it has. */
async function noted(frame: Frame, name: string, timeout: number): Promise<number> {
  const handle = await frame.waitForFunction((key) => (window as unknown as Record<string, number | undefined>)[key], name, { timeout });
  return (await handle.jsonValue()) as number;
}

/** When the page's or frame's own navigation started (its document's request), on the same clock. */
export const navigationStartedAt = (target: Page | Frame): Promise<number> => target.evaluate(() => performance.timeOrigin);
