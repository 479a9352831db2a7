import { chromium } from "playwright-core";
const url = process.argv[2]!; const out = process.argv[3]!;
const browser = await chromium.launch({ executablePath: "/usr/bin/chromium", args: ["--headless","--no-sandbox","--disable-gpu","--disable-quic","--no-first-run","--disable-background-networking","--disable-component-update","--disable-sync"] });
const page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
page.on("console", (m) => { if (m.type() === "error") console.log("console:", m.text()); });
await page.goto(url);
await page.waitForTimeout(Number(process.argv[4] ?? 8000));
await page.screenshot({ path: out });
await browser.close();
