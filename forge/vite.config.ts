import { fileURLToPath } from "node:url";
import react from "@vitejs/plugin-react";
import { defineConfig } from "vite";

const fromRoot = (relative: string) => fileURLToPath(new URL(relative, import.meta.url));

/**
 * The Forge issue panel's Custom UI (`npm run forge:build`): client/forge/index.html and what it
 * imports, built into the resource folder forge/jira/manifest.yml names. Forge serves it from its
 * CDN under a path of its own, so every asset URL is relative.
 */
export default defineConfig({
  root: fromRoot("../client/forge"),
  base: "./",
  publicDir: false,
  plugins: [react()],
  legacy: { inconsistentCjsInterop: true },
  build: {
    outDir: fromRoot("./jira/static/issue-panel"),
    emptyOutDir: true,
  },
});
