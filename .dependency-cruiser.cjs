/**
 * The boundaries `npm run lint` holds (record 168; it replaces the regex test of record 092). Read by
 * dependency-cruiser, which resolves every import the TypeScript compiler sees: static, side-effect,
 * `export ... from`, type-only, dynamic `import()` and `require()` of a string or template literal.
 * Paths are from the repository root.
 */
const SERVER = '^apps/server/src/';
const MODULES = `${SERVER}modules/`;
const FEATURES = '^apps/web/src/features/';
/** Tests and test set-up may reach into other modules for fixtures; production code may not. */
const TESTS = ['\\.test\\.tsx?$', `${SERVER}test-support/`, '^apps/server/src/main-e2e\\.ts$'];

/**
 * What another module may import from each module (files under modules/<name>/, without .ts): a module
 * with an `index.ts` offers that; these list the public files of modules without one yet. Anything
 * else in a module is its own.
 */
const PUBLIC_ENTRY_POINTS = {
  auth: ['service', 'auth'],
  // The content checks (WAV header, cover) also check catalogue imports' files (record 200).
  builder: ['files', 'wav', 'cover'],
  'content-id': ['opt-in-at-submission'],
  delivery: ['planning', 'worker', 'needs-action'],
  // Edit Release's plan locks and the file claims, for post-release updates (record 197).
  // Release time and territories, read by the builder, delivery and review (record 199).
  releases: ['service', 'mails', 'edit', 'files', 'availability'],
  // The operator's fee and a posting's figures, for the finance module (record 189).
  royalties: ['fees', 'posting-figures'],
  // Team invitations follow the split invitations' sending limits and mail layout (record 202).
  splits: ['posting', 'statement', 'invitation-limits', 'mails'],
  wallet: ['service', 'balance', 'payment-crypto', 'audit', 'payees'],
};
const publicFiles = [
  `${MODULES}[^/]+/index\\.ts$`,
  ...Object.entries(PUBLIC_ENTRY_POINTS).map(
    ([module, files]) => `${MODULES}${module}/(${files.join('|')})\\.ts$`,
  ),
];

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      severity: 'error',
      comment:
        'A cycle between files (type-only imports included): two modules that need each other are one ' +
        'module, or one of them owes the other an interface. Break it by moving the shared part down (lib/, a new module).',
      from: { pathNot: TESTS },
      to: { circular: true },
    },
    {
      name: 'module-internals',
      severity: 'error',
      comment:
        "A module imports another module only through that module's public entry (its index.ts, or the " +
        'files PUBLIC_ENTRY_POINTS lists in .dependency-cruiser.cjs).',
      from: { path: `${MODULES}([^/]+)/`, pathNot: TESTS },
      to: { path: MODULES, pathNot: [`${MODULES}$1/`, ...publicFiles] },
    },
    {
      name: 'infra-and-db-know-no-module',
      severity: 'error',
      comment:
        'infra/ and db/ know no business rule: they reach no module, directly or through anything else.',
      from: { path: `${SERVER}(infra|db)/`, pathNot: TESTS },
      to: { path: MODULES, reachable: true },
    },
    {
      name: 'infra-and-db-tests-import-no-module',
      severity: 'error',
      comment:
        'Tests of infra/ and db/ may start the whole system (the harness) but import no module themselves.',
      from: { path: `${SERVER}(infra|db)/.+\\.test\\.ts$` },
      to: { path: MODULES },
    },
    {
      name: 'lib-knows-no-module-or-adapter',
      severity: 'error',
      comment:
        'lib/ is below the modules and the adapters: it reaches neither, not even through deps.ts or a ' +
        'type (declare what lib needs as a lib type; deps.ts adds the services to RequestDeps).',
      from: { path: `${SERVER}lib/`, pathNot: TESTS },
      to: { path: [`${SERVER}modules/`, `${SERVER}infra/`], reachable: true },
    },
    {
      name: 'layers-know-no-composition-root',
      severity: 'error',
      comment:
        'Modules, lib, infra and db do not import the composition roots (app, server, main, cli, ' +
        'job-registry, deps): those import them.',
      from: { path: `${SERVER}(modules|lib|infra|db)/`, pathNot: TESTS },
      to: { path: `${SERVER}(app|app-type|server|main|cli[^/]*|job-registry)\\.ts$` },
    },
    {
      name: 'web-feature-internals',
      severity: 'error',
      comment:
        "A web feature imports another feature only through that feature's public entry, " +
        'features/<name>/index.ts(x).',
      from: { path: `${FEATURES}([^/]+)/` },
      to: { path: FEATURES, pathNot: [`${FEATURES}$1/`, `${FEATURES}[^/]+/index\\.tsx?$`] },
    },
    {
      name: 'web-shared-knows-no-feature',
      severity: 'error',
      comment: 'apps/web/src/components and lib are shared by the features, so they import none.',
      from: { path: '^apps/web/src/(components|lib)/', pathNot: TESTS },
      to: { path: FEATURES },
    },
    {
      name: 'shared-package-knows-no-app',
      severity: 'error',
      comment: 'packages/shared is imported by both apps and imports neither.',
      from: { path: '^packages/shared/' },
      to: { path: '^apps/' },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: ['(^|/)node_modules/', '(^|/)dist/', '\\.d\\.ts$'] },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.base.json' },
    enhancedResolveOptions: {
      exportsFields: ['exports'],
      conditionNames: ['import', 'require', 'node', 'default', 'types'],
      extensions: ['.ts', '.tsx', '.js', '.mjs', '.cjs', '.json'],
    },
    reporterOptions: { text: { highlightFocused: true } },
  },
};
