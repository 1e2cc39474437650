import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

/**
 * `npm run dev -w @youyou/web` serves the UI with hot reload and proxies `/api` to a running
 * `youyou serve` (YOUYOU_API, default http://127.0.0.1:4317). `npm run build` writes dist/app,
 * which the server serves.
 */
const apiTarget = process.env['YOUYOU_API'] ?? 'http://127.0.0.1:4317';

export default defineConfig({
  plugins: [react()],
  base: './',
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    target: 'es2022',
    sourcemap: false,
    chunkSizeWarningLimit: 1500,
  },
  server: {
    proxy: { '/api': { target: apiTarget, changeOrigin: false, ws: false } },
  },
});
