import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

/**
 * `npm run dev -w @youyou/web` serves the UI with hot reload and proxies `/api` to a running
 * `youyou serve` (YOUYOU_API, default http://127.0.0.1:4280). `npm run build` writes dist/,
 * which the server serves.
 */
const apiTarget = process.env['YOUYOU_API'] ?? 'http://127.0.0.1:4280';

export default defineConfig({
  plugins: [react()],
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
