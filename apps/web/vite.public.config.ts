/**
 * The prerendered public pages' own bundle (record 209): entry src/public-main.tsx, built after the app's
 * (`vite build`, which empties dist/) into the same dist/assets, with its own manifest for prerender.mjs.
 * `react-router` resolves to src/public/router.tsx, so these pages carry no router: their links load the
 * next document. No CSS here: prerender.mjs inlines the app's stylesheet (Tailwind scans every source).
 *
 * Few files per page (record 216): left to itself Rolldown puts every module that both the entry and a
 * page import in a chunk of its own (React, `cn`, the API client…), so `/login` loaded 12 scripts, in
 * three waves over a throttled connection's six. Here the entry's chunk takes everything the entry
 * imports statically plus a few small modules every page uses; the sign-in and sign-up pages' common
 * code (react-hook-form, TanStack Query, the auth shell, the app's providers) is one chunk, the typed API
 * client another (the contact form uses it too), and the marketing pages' common code a third. What loads
 * on use (zod, better-auth's client, the contact form, sonner) keeps its own chunks.
 */
import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import { defineConfig, type Plugin } from 'vite';

const entry = 'src/public-main.tsx';
const sep = String.raw`[\\/]`;
const path = (...parts: string[]) => new RegExp(parts.join(sep));
const lucideIcon = path('lucide-react', 'dist', 'esm', 'icons', '');

/**
 * Module ids the entry reaches through static imports, known once the graph is built (before chunking).
 * Not the icons: lucide-react's index imports every icon, of which tree-shaking keeps the two the header
 * uses (they land in the entry anyway, its only importer).
 */
const entryGraph = new Set<string>();
function recordEntryGraph(): Plugin {
  return {
    name: 'tunedrop:public-entry-graph',
    apply: 'build',
    buildEnd() {
      entryGraph.clear();
      const entryId = [...this.getModuleIds()].find((id) => id.endsWith(entry));
      const queue = entryId ? [entryId] : [];
      while (queue.length > 0) {
        const id = queue.pop();
        if (!id || entryGraph.has(id) || lucideIcon.test(id)) continue;
        entryGraph.add(id);
        queue.push(...(this.getModuleInfo(id)?.importedIds ?? []));
      }
    },
  };
}

/** Small modules (under 2 KB) every page, or nearly, uses: in the entry rather than a file each. */
const everyPage = [
  path('src', 'lib', 'use-page-title\\.ts$'),
  path('src', 'components', 'ui', 'input\\.tsx$'),
  path('lucide-react', 'dist', 'esm', 'icons', 'check\\.mjs$'),
];
/** The typed API client (hono/client): the form pages and the contact form use it, the marketing pages do not. */
const apiClient = [path('src', 'lib', 'api\\.ts$'), path('node_modules', 'hono', 'dist', '')];
/** What both form pages load before they hydrate (the app's providers included: prerender.mjs knows). */
const formPages = [
  path('node_modules', 'react-hook-form', ''),
  path('node_modules', '@tanstack', ''),
  path('src', 'features', 'auth', 'components', 'auth-shell\\.tsx$'),
  path('src', 'features', 'auth', 'api', 'account\\.ts$'),
  path('packages', 'shared', 'src', 'schemas', 'auth-rules\\.ts$'),
  path('src', 'lib', '(viewer|viewer-key|use-lazy-zod-form|use-is-hydrated|auth-sync)\\.tsx?$'),
  path('src', 'app', '(providers|query-client)\\.tsx?$'),
  path('src', 'components', 'ui', 'toaster-demand\\.ts$'),
];
/** What the marketing pages share. */
const sitePages = [
  path(
    'src',
    'features',
    'site',
    'components',
    '(steps|use-contact-modal|use-scroll-to-top-on-load)\\.tsx?$',
  ),
  path('lucide-react', 'dist', 'esm', 'icons', '(rocket|file-headphone|send)\\.mjs$'),
];
const matches = (patterns: RegExp[]) => (id: string) => patterns.some((pattern) => pattern.test(id));

export default defineConfig({
  plugins: [react(), recordEntryGraph()],
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
    rollupOptions: {
      input: entry,
      output: {
        codeSplitting: {
          groups: [
            {
              name: 'public-main',
              test: (id) => entryGraph.has(id) || matches(everyPage)(id),
              priority: 4,
            },
            // Before the form pages' group, which would otherwise take it in as a dependency.
            { name: 'api', test: matches(apiClient), priority: 2 },
            { name: 'public-forms', test: matches(formPages), priority: 1 },
            { name: 'public-site', test: matches(sitePages), priority: 0 },
          ],
        },
      },
    },
  },
});
