/**
 * The boundaries `npm run lint` holds (record 168; it replaces the regex test of record 092). Read by
 * dependency-cruiser, which resolves every import the TypeScript compiler sees: static, side-effect,
 * `export ... from`, type-only, dynamic `import()` and `require()` of a string or template literal.
 * Paths are from the repository root.
 */
const SERVER = '^apps/server/src/';
const MODULES = `${SERVER}modules/`;
const FEATURES = '^apps/web/src/features/';
/** The posting side of royalties (issue 36, record 250). */
const POSTING = 'royalty-posting';
/** The steps of royalty-imports, in the order an imported file goes through them (record 278). */
const IMPORTS = `${MODULES}royalty-imports/`;
const DETECT_STEP = '(detect|headers)';
const PARSE_STEP = '(parse|parse-[a-z]+|dsr-records)';
const STAGE_STEP = '(stage-[a-z]+|staging|copy-in|import-checks|service|jobs|job-handlers|routes)';
/** Tests and test set-up may reach into other modules for fixtures; production code may not. */
const TESTS = ['\\.test\\.tsx?$', `${SERVER}test-support/`, '^apps/server/src/main-e2e\\.ts$'];

/**
 * A module's front door is its `index.ts` (issue 37): what other modules, tests included, may import of it.
 * Anything else in a module is its own. The composition roots (app.ts, server.ts, cli-commands.ts,
 * job-registry.ts, main-e2e.ts) also wire a module's routes, jobs, lazily loaded job handlers and CLI
 * commands by their files; every module has an index.ts (scripts/checks/front-doors.mjs).
 */
const FRONT_DOOR = `${MODULES}[^/]+/index\\.ts$`;
const WIRING = `${MODULES}[^/]+/(routes|claims-routes|jobs|job-handlers|cli)\\.ts$`;

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
        "A module (its tests too) imports another module only through that module's front door, its " +
        'index.ts (issue 37). Export what is needed there.',
      from: { path: `${MODULES}([^/]+)/` },
      to: { path: MODULES, pathNot: [`${MODULES}$1/`, FRONT_DOOR] },
    },
    {
      name: 'outside-modules-through-the-front-door',
      severity: 'error',
      comment:
        'Code outside the modules (lib, infra, test-support, the composition roots) imports a module through ' +
        'its index.ts; the composition roots and tests may also wire its routes, jobs, job handlers and CLI ' +
        'commands (routes.ts, claims-routes.ts, jobs.ts, job-handlers.ts, cli.ts).',
      from: { path: SERVER, pathNot: MODULES },
      to: { path: MODULES, pathNot: [FRONT_DOOR, WIRING] },
    },
    {
      name: 'royalty-imports-know-no-posting-or-statements',
      severity: 'error',
      comment:
        'Royalties in three modules with one-way arrows (issue 36, record 250): royalty-imports (source, ' +
        'detect, parse, stage) knows nothing of posting or statements, directly or through another module ' +
        '(record 278); posting reads the staged report ' +
        "through royalty-imports' index.ts, statements read posting's results.",
      from: { path: `${MODULES}royalty-imports/`, pathNot: TESTS },
      to: { path: `${MODULES}(${POSTING}|statements)/`, reachable: true },
    },
    {
      name: 'royalty-posting-knows-no-statements',
      severity: 'error',
      comment:
        'Posting writes the books and knows nothing of the statements that read them (record 250), directly ' +
        'or through another module (record 278): statements import posting, never the other way.',
      from: { path: `${MODULES}${POSTING}/`, pathNot: TESTS },
      to: { path: `${MODULES}statements/`, reachable: true },
    },
    {
      name: 'royalty-import-source-knows-no-later-step',
      severity: 'error',
      comment:
        'An imported file goes forward only (issue 36, record 278): source (source.ts, measure.ts) → detect ' +
        '(detect.ts, headers.ts) → parse (parse*.ts, dsr-records.ts) → stage. The source reads and measures ' +
        'the bytes and knows nothing of what detects, parses or stages them.',
      from: { path: `${IMPORTS}(source|measure)\\.ts$` },
      to: { path: `${IMPORTS}(${DETECT_STEP}|${PARSE_STEP}|${STAGE_STEP})\\.ts$` },
    },
    {
      name: 'royalty-import-detect-knows-no-parser',
      severity: 'error',
      comment:
        "The detect step reads a report's first lines (the head kept as the upload streamed in) and enters no " +
        'parser: the parse comes after it and imports it, never the reverse (record 278).',
      from: { path: `${IMPORTS}${DETECT_STEP}\\.ts$` },
      to: { path: `${IMPORTS}(${PARSE_STEP}|${STAGE_STEP})\\.ts$` },
    },
    {
      name: 'royalty-import-parse-knows-no-staging',
      severity: 'error',
      comment:
        'The parse yields lines and knows nothing of staging them or of the job that runs it (record 278).',
      from: { path: `${IMPORTS}${PARSE_STEP}\\.ts$` },
      to: { path: `${IMPORTS}(${STAGE_STEP})\\.ts$` },
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
      name: 'web-features-never-import-features',
      severity: 'error',
      comment:
        'A web feature imports no other feature (issue 37): a page that needs several is composed in ' +
        'app/pages, which gives the feature the parts of the others (slots); what two features share ' +
        'moves to lib/ or components/. The one lower feature is features/release-form (record 262), ' +
        'imported through its index.ts.',
      from: { path: `${FEATURES}([^/]+)/` },
      to: {
        path: FEATURES,
        pathNot: [`${FEATURES}$1/`, `${FEATURES}release-form/index\\.tsx?$`],
      },
    },
    {
      name: 'web-app-through-the-front-door',
      severity: 'error',
      comment:
        'app/ and the entries import a feature through its index.ts(x), or load one of its pages ' +
        '(features/<name>/routes/, lazily from app/router.tsx) (issue 37).',
      from: { path: '^apps/web/src/', pathNot: FEATURES },
      to: { path: FEATURES, pathNot: [`${FEATURES}[^/]+/index\\.tsx?$`, `${FEATURES}[^/]+/routes/`] },
    },
    {
      name: 'web-release-form-is-below-features',
      severity: 'error',
      comment:
        'features/release-form (credits, files, uploads, release time and territories) is used by the ' +
        'builder and releases; it imports no feature, so the direction stays one way (record 262).',
      from: { path: `${FEATURES}release-form/` },
      to: { path: FEATURES, pathNot: `${FEATURES}release-form/` },
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
