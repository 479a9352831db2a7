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

/** Every page of `context` notes when `target` first shows (call before opening the page). */
export async function watchFirstSeen(context: BrowserContext, target: Target): Promise<void> {
  const text = target.text ? `new RegExp(${JSON.stringify(target.text.source)}, ${JSON.stringify(target.text.flags)})` : "null";
  // A string, not a function: the function's transpiled text would name the bench's own helpers.
  await context.addInitScript(`(() => {
    const selector = ${JSON.stringify(target.selector)};
    const text = ${text};
    let waiting = false;
    const shown = () => [...document.querySelectorAll(selector)].find(
      (element) => (!text || text.test(element.textContent || "")) && element.getClientRects().length > 0,
    );
    // After the animation frame the element is laid out in, once that frame has been painted.
    const noteWhenPainted = () => {
      waiting = true;
      requestAnimationFrame(() => {
        const channel = new MessageChannel();
        channel.port1.onmessage = () => {
          waiting = false;
          if (!shown()) return;
          window.__firstSeenAt = performance.timeOrigin + performance.now();
          observer.disconnect();
        };
        channel.port2.postMessage(null);
      });
    };
    const observer = new MutationObserver(() => {
      if (!waiting && [...document.querySelectorAll(selector)].some((element) => !text || text.test(element.textContent || ""))) noteWhenPainted();
    });
    observer.observe(document, { childList: true, subtree: true, characterData: true });
  })();`);
}

/** When the watched element was first painted in `frame`, in ms since the epoch on the browser's clock; waits for it. */
export async function firstSeenAt(frame: Frame, timeout = 120_000): Promise<number> {
  const handle = await frame.waitForFunction(() => (window as { __firstSeenAt?: number }).__firstSeenAt, undefined, { timeout });
  return (await handle.jsonValue()) as number;
}

/** When the page's or frame's own navigation started (its document's request), on the same clock. */
export const navigationStartedAt = (target: Page | Frame): Promise<number> => target.evaluate(() => performance.timeOrigin);
