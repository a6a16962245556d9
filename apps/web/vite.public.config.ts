/**
 * The prerendered public pages' own bundle (record 209): entry src/public-main.tsx, built after the app's
 * (`vite build`, which empties dist/) into the same dist/assets, with its own manifest for prerender.mjs.
 * `react-router` resolves to src/public/router.tsx, so these pages carry no router: their links load the
 * next document. No CSS here: prerender.mjs inlines the app's stylesheet (Tailwind scans every source).
 */
import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

export default defineConfig({
  plugins: [react()],
  resolve: {
    alias: [
      {
        find: /^react-router$/,
        replacement: fileURLToPath(new URL('./src/public/router.tsx', import.meta.url)),
      },
    ],
  },
  publicDir: false,
  build: {
    outDir: 'dist',
    emptyOutDir: false,
    sourcemap: false,
    manifest: '.vite/public-manifest.json',
    rollupOptions: { input: 'src/public-main.tsx' },
  },
});
