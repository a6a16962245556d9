/**
 * The catalogue import's front door (record 200). No other module uses a part of it: it creates releases
 * through the catalogue core (`createRelease`, record 261) and queues deliveries through `delivery`; its
 * routes, jobs and CLI commands are wired by the composition roots (app.ts, job-registry.ts,
 * cli-commands.ts).
 */
export {};
