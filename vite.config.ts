import { realpathSync } from "node:fs";
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
  // The development server serves files by absolute path (/app/@fs/...); only what the client
  // imports may be read so. Left to Vite's default (the project folder) it handed out .data: the
  // emulator's shared secrets, the install-signing key, the embedded database and stored uploads.
  server: {
    fs: {
      strict: true,
      allow: [fromRoot("./client"), fromRoot("./common"), fromRoot("./node_modules"), realpathSync(fromRoot("./node_modules"))],
    },
  },
  // Atlaskit ships parts (the core icons) as Babel-compiled CommonJS flagged `__esModule`; our
  // `"type": "module"` package would otherwise import their module object instead of the component.
  legacy: { inconsistentCjsInterop: true },
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
