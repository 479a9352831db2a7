import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { type Browser, chromium, type Frame, type Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Emulator, startEmulator } from "../../emulator/server.js";
import { type StubAddon, startStubAddon } from "../../emulator/testing/stubAddon.js";
import { addonFrame, CHROMIUM_ARGS } from "./harness.js";

/**
 * The AP bridge of the emulated Jira in a real Chromium, with a bare Connect add-on that loads
 * the host's all.js: what an app calls on AP behaves as in Jira Cloud.
 */
describe("the emulator's AP bridge", () => {
  let dataDir: string;
  let stub: StubAddon;
  let emulator: Emulator;
  let browser: Browser;
  let page: Page;
  let frame: Frame;
  const external: string[] = [];

  // biome-ignore lint/suspicious/noExplicitAny: AP is the untyped host API as apps meet it
  type Win = Window & { AP: any; dialogClosed?: boolean; popped?: string };

  beforeAll(async () => {
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "emulator-bridge-"));
    let emulatorUrl = "";
    stub = await startStubAddon(() => `${emulatorUrl}/_emulator/connect-keys`);
    emulator = await startEmulator({ port: 0, addonUrl: stub.url, dataDir, installOnStart: false, log: () => {} });
    emulatorUrl = emulator.url;
    await emulator.installAll();
    browser = await chromium.launch({ executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium", args: CHROMIUM_ARGS });
    page = await browser.newPage();
    page.on("request", (request) => {
      if (!/^(https?:\/\/localhost[:/]|data:|blob:|about:)/.test(request.url())) external.push(request.url());
    });
    await page.goto(emulator.url);
    await page.locator("tr", { hasText: "ROVER" }).locator("a.project-addon-link").click();
    frame = await addonFrame(page, stub.url);
    await frame.waitForFunction(() => document.body.dataset.ap === "loaded" && Boolean((window as unknown as Win).AP));
  });

  afterAll(async () => {
    await browser?.close();
    await emulator?.stop();
    await stub?.stop();
    if (dataDir) fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it("gives a context token with context-qsh and the project context", async () => {
    const answer = await frame.evaluate(async () => {
      const { AP } = window as unknown as Win;
      return { token: (await AP.context.getToken()) as string, context: await AP.context.getContext() };
    });
    const claims = JSON.parse(Buffer.from(answer.token.split(".")[1] ?? "", "base64url").toString()) as { qsh: string; sub: string };
    expect(claims.qsh).toBe("context-qsh");
    expect(claims.sub).toBe("5b10a2844c20165700ede21g");
    expect(answer.context).toMatchObject({ jira: { project: { id: "10001", key: "ROVER" } }, license: { active: true } });
  });

  it("runs AP.request as the signed-in user and resolves with body and xhr", async () => {
    const answer = await frame.evaluate(async () => {
      const { AP } = window as unknown as Win;
      const ok = await AP.request({ url: "/rest/api/3/myself" });
      const failed = await AP.request({ url: "/rest/api/3/issue/NOPE-1" }).catch((e: { err: string; xhr: { status: number } }) => ({
        status: e.xhr.status,
      }));
      return { me: JSON.parse(ok.body).displayName, status: ok.xhr.status, failed };
    });
    expect(answer).toEqual({ me: "Alana Grant", status: 200, failed: { status: 404 } });
  });

  it("keeps the main screen's state in the host history and reports back and forward", async () => {
    await frame.evaluate(() => {
      const win = window as unknown as Win;
      win.AP.history.popState((event: { state: string }) => {
        win.popped = event.state;
      });
      win.AP.history.pushState("10001-requirements");
      win.AP.history.pushState("10001-baselines");
    });
    await expect.poll(() => page.url()).toContain("#!10001-baselines");
    expect(await frame.evaluate(() => (window as unknown as Win).AP.history.getState())).toBe("10001-baselines");
    await page.goBack();
    await expect.poll(() => frame.evaluate(() => (window as unknown as Win).popped)).toBe("10001-requirements");
  });

  it("shows flags from the add-on on the host page", async () => {
    await frame.evaluate(() =>
      (window as unknown as Win).AP.flag.create({ title: "Saved", body: "Settings saved successfully", type: "success" }),
    );
    await expect.poll(() => page.locator(".flag-success").textContent()).toContain("Settings saved successfully");
  });

  it("opens a host dialog, sends submit to it and tells the opener when it closes", async () => {
    await frame.evaluate(() => {
      const win = window as unknown as Win;
      win.AP.dialog.create({ key: "link-dialog", width: "80%", height: "60%" }).on("close", () => {
        win.dialogClosed = true;
      });
    });
    await expect.poll(() => page.locator(".dialog h2").textContent()).toBe("Update linked requirements");
    const dialog = await addonFrame(page, stub.url, "dialog=1");
    await dialog.waitForFunction(() => document.body.dataset.ap === "loaded" && Boolean((window as unknown as Win).AP));
    await dialog.evaluate(() => {
      const win = window as unknown as Win;
      win.AP.events.on("dialog.submit", () => {
        document.title = "submitted";
      });
    });
    const submit = page.locator('.dialog button[data-identifier="submit"]');
    await expect.poll(() => submit.isEnabled()).toBe(true);
    await submit.click();
    await expect.poll(() => page.locator(".dialog").count()).toBe(0);
    await expect.poll(() => frame.evaluate(() => (window as unknown as Win).dialogClosed)).toBe(true);
  });

  it("opens a Confluence macro's editor, saves its parameters and shows the macro with them", async () => {
    const wiki = await browser.newPage();
    await wiki.goto(`${emulator.url}/wiki/spaces/ENG/pages/65569`);
    await expect.poll(() => wiki.locator(".macro").count()).toBe(1);
    await wiki.getByRole("button", { name: "Edit" }).click();
    await expect.poll(() => wiki.locator(".dialog h2").textContent()).toBe("Linked requirements");
    const editor = await addonFrame(wiki, stub.url, "editor=1");
    await editor.waitForFunction(() => document.body.dataset.ap === "loaded" && Boolean((window as unknown as Win).AP));
    const params = await editor.evaluate(() => (window as unknown as Win).AP.confluence.getMacroData());
    expect(params).toEqual({});
    await editor.evaluate(async () => {
      const { AP } = window as unknown as Win;
      await AP.confluence.saveMacro({ ids: "7,9" });
      AP.confluence.closeMacroEditor();
    });
    await expect.poll(async () => new URL((await addonFrame(wiki, stub.url, "macro=")).url()).searchParams.get("ids")).toBe("7,9");
    await wiki.close();
  });

  it("works offline: neither the host nor the iframe script calls out of this machine", () => {
    expect(external).toEqual([]);
  });
});
