import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import { defaultClientConditions, defineConfig, type Plugin } from 'vite';

const webDirectory = dirname(fileURLToPath(import.meta.url));

const EARLY_REQUESTS = 'src/early-requests/early-requests.ts';

/**
 * The early-requests script (src/early-requests) as an entry of its own, loaded by index.html as
 * the first thing in <head>: a classic script, so it runs as soon as it arrives (a module script
 * waits its turn behind the compiling of the app's modules) and starts the first screen's requests
 * while the app's modules are still loading and evaluating. It imports nothing and is one function
 * (its names stay out of the page's globals), so its chunk is a plain script.
 */
function earlyRequests(): Plugin {
  return {
    name: 'youyou-early-requests',
    config: () => ({
      build: {
        rollupOptions: {
          input: {
            index: join(webDirectory, 'index.html'),
            'early-requests': join(webDirectory, EARLY_REQUESTS),
          },
        },
      },
    }),
    generateBundle(_options, bundle) {
      for (const output of Object.values(bundle)) {
        if (output.type !== 'chunk' || !output.isEntry || output.name !== 'early-requests') continue;
        if (/^\s*(import|export)\b/m.test(output.code) || !output.code.trimStart().startsWith('('))
          throw new Error('early-requests must be one function that imports and exports nothing');
      }
    },
    transformIndexHtml: {
      order: 'post',
      handler(_html, context) {
        const built = Object.values(context.bundle ?? {}).find(
          (output) => output.type === 'chunk' && output.isEntry && output.name === 'early-requests',
        );
        if (context.bundle !== undefined && built === undefined)
          throw new Error('early-requests was not built');
        return [
          {
            tag: 'script',
            // The dev server serves the source, which only a module script may load.
            attrs:
              built === undefined
                ? { type: 'module', async: true, src: `/${EARLY_REQUESTS}` }
                : { src: `./${built.fileName}` },
            injectTo: 'head-prepend',
          },
        ];
      },
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
  plugins: [react(), earlyRequests()],
  // Our own packages (`@youyou/*`) from their sources, in the production build too: their exports'
  // `@youyou/source` condition (decision 0032), which no third-party package has.
  resolve: { conditions: ['@youyou/source', ...defaultClientConditions] },
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
