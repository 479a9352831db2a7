import { afterEach, describe, expect, it, vi } from "vitest";
import { memoryStorage, pageStorage } from "./pageStorage.js";

afterEach(() => {
  vi.unstubAllGlobals();
  delete (globalThis as { sessionStorage?: Storage }).sessionStorage;
});

describe("the page's storage", () => {
  it("is the browser's own where the page may use it", () => {
    const own = memoryStorage();
    vi.stubGlobal("sessionStorage", own);
    pageStorage("sessionStorage").setItem("rmcloud-token", "t1");
    expect(own.getItem("rmcloud-token")).toBe("t1");
  });

  it("is kept in memory, the same for the page's life, where the browser denies the frame its storage", () => {
    Object.defineProperty(globalThis, "sessionStorage", {
      configurable: true,
      get() {
        throw new DOMException("Access is denied for this document.", "SecurityError");
      },
    });
    pageStorage("sessionStorage").setItem("rmcloud-token", "t2");
    expect(pageStorage("sessionStorage").getItem("rmcloud-token")).toBe("t2");
    expect(pageStorage("localStorage").getItem("rmcloud-token")).toBe(null);
  });
});
