import tailwindcss from '@tailwindcss/vite';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

export default defineConfig({
  plugins: [react(), tailwindcss()],
  server: {
    port: 5173,
    proxy: { '/api': { target: process.env.API_URL ?? 'http://localhost:3000', changeOrigin: false } },
  },
  // The manifest tells prerender.mjs which chunks each prerendered page preloads (record 128).
  build: { outDir: 'dist', sourcemap: false, chunkSizeWarningLimit: 600, manifest: true },
  // The prerender bundle (vite build --ssr src/entry-server.tsx) carries its dependencies, workspace ones included.
  ssr: { noExternal: true },
});
