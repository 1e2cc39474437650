import { readFileSync, realpathSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import { defineConfig, type Plugin } from 'vite';

const workspaceModules = join(dirname(fileURLToPath(import.meta.url)), '../../node_modules');

/**
 * Our own packages (`@youyou/*`) from their sources, in the production build too: their exports'
 * `development` condition, which Vite applies only when not building. Adding that condition for
 * every package would give third-party packages their development builds.
 */
function workspaceSources(): Plugin {
  return {
    name: 'youyou-workspace-sources',
    enforce: 'pre',
    resolveId(source) {
      const match = /^(@youyou\/[^/]+)(\/.*)?$/.exec(source);
      if (match === null) return null;
      const folder = realpathSync(join(workspaceModules, match[1] ?? ''));
      const manifest = JSON.parse(readFileSync(join(folder, 'package.json'), 'utf8')) as {
        exports?: Record<string, string | { development?: string }>;
      };
      const entry = manifest.exports?.[`.${match[2] ?? ''}`];
      const sourceFile = typeof entry === 'object' ? entry.development : undefined;
      return sourceFile === undefined ? null : join(folder, sourceFile);
    },
  };
}

/**
 * `npm run dev -w @youyou/web` serves the UI with hot reload and proxies `/api` to a running
 * `youyou serve` (YOUYOU_API, default http://127.0.0.1:4280). `npm run build` writes dist/,
 * which the server serves.
 */
const apiTarget = process.env['YOUYOU_API'] ?? 'http://127.0.0.1:4280';

export default defineConfig({
  plugins: [workspaceSources(), react()],
  base: './',
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    target: 'es2022',
    sourcemap: false,
    chunkSizeWarningLimit: 1500,
    // Every asset a file of its own: the server's CSP allows fonts and images from 'self' only.
    assetsInlineLimit: 0,
  },
  // The code highlighter's worker loads its grammars as chunks: an ES module worker.
  worker: { format: 'es' },
  server: {
    proxy: {
      '/api': {
        target: apiTarget,
        changeOrigin: true,
        // The server accepts same-origin requests only: to it, the dev page's calls come from itself.
        configure: (proxy) => {
          proxy.on('proxyReq', (request) => {
            if (request.getHeader('origin') !== undefined) request.setHeader('origin', apiTarget);
          });
        },
      },
    },
  },
});
