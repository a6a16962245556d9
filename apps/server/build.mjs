// Bundles the server for `npm start` (record 093): src/main.ts → dist/main.js, src/cli.ts → dist/cli.js, the
// end-to-end entry src/main-e2e.ts (production server + test-fixtures router) → dist/main-e2e.js, and the
// statement worker threads' entry → dist/statement-worker.js (record 208).
// Native and wasm packages stay in node_modules (they load files next to themselves); everything else is
// bundled, so a start reads a few files instead of compiling TypeScript and resolving thousands of modules.
//   node apps/server/build.mjs              always build
//   node apps/server/build.mjs --if-stale   build only when a source file is newer than the bundle (npm run cli);
//                                           never where there are no sources (the production image)
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const serverDir = path.dirname(fileURLToPath(import.meta.url));
// Tests that start the server as a process build their own copy (test-support/server-bundle.ts), apart from
// the dist/ the journeys' build rewrites.
const outdir = process.env.TUNEDROP_BUILD_OUTDIR
  ? path.resolve(process.env.TUNEDROP_BUILD_OUTDIR)
  : path.join(serverDir, 'dist');

/** Newest modification time under `dir` (0 when it does not exist). */
function newestMtime(dir) {
  if (!fs.existsSync(dir)) return 0;
  let newest = 0;
  for (const entry of fs.readdirSync(dir, { withFileTypes: true, recursive: true })) {
    if (entry.isFile())
      newest = Math.max(newest, fs.statSync(path.join(entry.parentPath, entry.name)).mtimeMs);
  }
  return newest;
}

if (process.argv.includes('--if-stale')) {
  // The production image holds dist/ without the sources (and without esbuild): nothing to build there,
  // so `npm run cli` runs the bundled CLI as it is (record 334).
  if (!fs.existsSync(path.join(serverDir, 'src'))) process.exit(0);
  const builtAt = fs.existsSync(path.join(outdir, 'cli.js'))
    ? fs.statSync(path.join(outdir, 'cli.js')).mtimeMs
    : 0;
  const sourcesAt = Math.max(
    newestMtime(path.join(serverDir, 'src')),
    newestMtime(path.join(serverDir, '../../packages/shared/src')),
  );
  if (builtAt > sourcesAt) process.exit(0);
}

// Loaded only when building: a production install (without dev dependencies) runs dist/ as it is.
const { build } = await import('esbuild');

/** Loaded from node_modules at run time: native addons, wasm and data files, optional native drivers. */
export const external = [
  '@electric-sql/pglite', // postgres.wasm and its data file are read next to the package
  '@electric-sql/pglite/*',
  'sharp', // native libvips binding
  'pg-native', // optional in pg; not installed
  'ssh2', // optional native crypto binding
  'ssh2-sftp-client',
  'cpu-features',
  'pdfkit', // reads its standard-font metrics (js/data/*.afm) next to itself
  'fontkit', // the one copy pdfkit uses too (statement fonts are parsed once and shared)
  'piscina', // starts its own worker script (dist/worker.js in its package), which then loads ours
  // The OpenTelemetry SDK is imported only when OTEL_EXPORTER_OTLP_ENDPOINT is set (record 225): kept out
  // of the bundle, nothing of it is read or parsed otherwise (@opentelemetry/api, its no-op, is bundled).
  '@opentelemetry/sdk-trace-base',
  '@opentelemetry/exporter-trace-otlp-http',
  '@opentelemetry/context-async-hooks',
  '@opentelemetry/core',
  '@opentelemetry/resources',
];

const started = performance.now();
const isIfStale = process.argv.includes('--if-stale');
const result = await build({
  entryPoints: {
    main: path.join(serverDir, 'src/main.ts'),
    'main-e2e': path.join(serverDir, 'src/main-e2e.ts'),
    cli: path.join(serverDir, 'src/cli.ts'),
    // The royalty staging worker (record 207), started by the bundle from next to it.
    'royalty-stage-worker': path.join(serverDir, 'src/modules/royalty-imports/stage-worker.ts'),
    // The catalogue import's ERN reading worker (record 232), started by the bundle from next to it.
    'ern-read-worker': path.join(serverDir, 'src/modules/catalogue-import/ern-read-worker.ts'),
    // The statement worker threads' entry (record 208), loaded by statement-threads.ts beside the bundle.
    'statement-worker': path.join(serverDir, 'src/modules/statements/statement-worker.ts'),
  },
  outdir,
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20.19',
  // One self-contained file per entry, overwritten in place: a server already running from dist/ never
  // finds a chunk it loads lazily replaced or deleted by a later build (e2e builds, `npm run cli`).
  splitting: false,
  // Minified: V8 compiles the whole bundle at start, and compile time follows its size (9 MB → 4 MB).
  // Stack traces map back through the linked source maps with NODE_OPTIONS=--enable-source-maps.
  minify: true,
  sourcemap: 'linked',
  external,
  metafile: true,
  logLevel: 'warning',
  // CommonJS dependencies inside an ES module bundle still call require() and read __dirname.
  banner: {
    js: [
      "import { createRequire as __tdCreateRequire } from 'node:module';",
      "import { fileURLToPath as __tdFileURLToPath } from 'node:url';",
      "import { dirname as __tdDirname } from 'node:path';",
      'const require = __tdCreateRequire(import.meta.url);',
      'const __filename = __tdFileURLToPath(import.meta.url);',
      'const __dirname = __tdDirname(__filename);',
    ].join('\n'),
  },
});

/** Every source file reachable from one output file, through its static and dynamic imports. */
function inputsOf(outputFile, seen = new Set()) {
  if (seen.has(outputFile)) return [];
  seen.add(outputFile);
  const output = result.metafile.outputs[outputFile];
  if (!output) return [];
  return [
    ...Object.keys(output.inputs),
    ...output.imports.filter((item) => !item.external).flatMap((item) => inputsOf(item.path, seen)),
  ];
}
const mainOutput = Object.keys(result.metafile.outputs).find((file) => path.basename(file) === 'main.js');
const mainInputs = mainOutput ? inputsOf(mainOutput) : [];
const bytes = Object.values(result.metafile.outputs).reduce((sum, output) => sum + output.bytes, 0);
if (!isIfStale) {
  console.info(
    `server bundle: ${Object.keys(result.metafile.outputs).filter((f) => f.endsWith('.js')).length} files, ` +
      `${(bytes / 1024 / 1024).toFixed(1)} MB (with source maps) in ${Math.round(performance.now() - started)} ms`,
  );
}
if (mainInputs.length === 0) throw new Error('no dist/main.js in the bundle');
if (mainInputs.some((input) => input.includes('test-fixtures'))) {
  throw new Error('the production entry must not contain the test-fixtures router');
}
