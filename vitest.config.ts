import { defineConfig } from 'vitest/config';

/**
 * Every server test file shares its worker's modules (isolate: false), so the app's ~400 modules and
 * PGlite's WebAssembly are loaded and compiled once per worker instead of once per file, which halved the
 * suite's time (record 254). Each file still gets its own database, app and temporary directory. These
 * files run in a fresh process each (project server-isolated; `--project 'server*'` selects both):
 * - a file that mocks a module (vi.mock) needs modules of its own;
 * - files that stop their sshd with the app's SFTP connections to it still open: the connection's late
 *   "No response from server" was thrown into the next file once (target-lifecycle), failing the run.
 */
const ISOLATED_FILES = [
  'src/modules/royalty-imports/stage-worker.test.ts',
  'src/modules/royalty-imports/upload-reads.test.ts',
  'src/modules/royalty-imports/upload-reads-s3.test.ts',
  'src/modules/delivery/youtube.test.ts',
  'src/modules/delivery/delivery.test.ts',
  'src/modules/delivery/target-add-api.test.ts',
  'src/modules/delivery/target-cli.test.ts',
  'src/modules/delivery/target-edit-api.test.ts',
  'src/modules/delivery/partial-packages.test.ts',
  'src/modules/delivery/target-lifecycle.test.ts',
  'src/modules/delivery/host-keys.test.ts',
  'src/scale-out.test.ts',
];

const server = {
  root: './apps/server',
  testTimeout: 30_000,
  hookTimeout: 60_000,
  pool: 'forks',
  setupFiles: ['./src/test-support/setup.ts'],
} as const;

export default defineConfig({
  test: {
    projects: [
      {
        test: {
          name: 'shared',
          root: './packages/shared',
          include: ['src/**/*.test.ts'],
        },
      },
      {
        test: {
          name: 'api-client',
          root: './packages/api-client',
          include: ['src/**/*.test.ts'],
        },
      },
      {
        test: {
          ...server,
          name: 'server',
          include: ['src/**/*.test.ts'],
          exclude: ISOLATED_FILES,
          isolate: false,
        },
      },
      {
        test: {
          ...server,
          name: 'server-isolated',
          include: ISOLATED_FILES,
        },
      },
      {
        test: {
          name: 'web',
          root: './apps/web',
          include: ['src/**/*.test.ts'],
        },
      },
      {
        // Route tests of the web's screens (issue 37): Testing Library in happy-dom, the API mocked by MSW.
        test: {
          name: 'web-dom',
          root: './apps/web',
          include: ['src/**/*.test.tsx'],
          environment: 'happy-dom',
          setupFiles: ['./src/test-support/setup-dom.ts'],
        },
      },
    ],
  },
});
