import { fileURLToPath } from "node:url";
import react from "@vitejs/plugin-react";
import { defineConfig } from "vite";

const fromRoot = (relative: string) => fileURLToPath(new URL(relative, import.meta.url));

/**
 * Everything Vite serves (modules in development, built assets in production) lives under /app/,
 * apart from our routes: otherwise client/api/*.ts would be asked for at /api/*, the server API.
 *
 * Two html entries: the main app and the issue panel. The panel entry stays light because an issue
 * view opens it on every issue; it must not pull in the main screen's tree, matrix or baselines.
 */
export default defineConfig({
  root: fromRoot("./client"),
  base: "/app/",
  publicDir: fromRoot("./client/public"),
  plugins: [react()],
  // Atlaskit ships parts (the core icons) as Babel-compiled CommonJS flagged `__esModule`; our
  // `"type": "module"` package would otherwise import their module object instead of the component.
  legacy: { inconsistentCjsInterop: true },
  // Loaded by the import dialog only once a file is chosen: pre-bundled at start, or its first use
  // would make the development server re-bundle its dependencies and reload the page mid-dialog.
  optimizeDeps: { include: ["csv-parse/browser/esm"] },
  build: {
    outDir: fromRoot("./dist/client"),
    emptyOutDir: true,
    rollupOptions: {
      input: {
        index: fromRoot("./client/index.html"),
        panel: fromRoot("./client/panel.html"),
      },
    },
  },
});
