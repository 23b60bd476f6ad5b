import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';

/**
 * The dashboard's build (docs/dashboard.md): served by the API at /dashboard (api/dashboard/dashboard.routes.ts).
 * Hashed file names under assets/ (cached for a year there), no inline script or style in index.html (the page's
 * Content-Security-Policy allows neither), no source maps published, nothing loaded from another origin.
 */
export default defineConfig({
  root: fileURLToPath(new URL('.', import.meta.url)),
  base: '/dashboard/',
  plugins: [react()],
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    assetsDir: 'assets',
    // Always separate files: a small asset inlined as a data: URL would need `data:` in the CSP.
    assetsInlineLimit: 0,
    // Vite's modulepreload polyfill would be an inline script; every browser the dashboard supports has modulepreload.
    modulePreload: { polyfill: false },
    sourcemap: false,
    target: 'es2022',
    reportCompressedSize: false,
  },
});
