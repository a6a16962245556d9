/**
 * The whole data model (spec 01 §3 and 02 §3) plus the auth library's tables, one file per module under
 * db/schema/; importers and drizzle-kit read it from here. Money columns are integer cents; every enum
 * has a CHECK, built from the shared constant where one exists; deletes are deliberate: nothing an artist
 * uploaded or earned disappears through a cascade from a user row. A new table goes into its module's
 * file (a new module gets a file, exported here).
 */
export * from './schema/accounts';
export * from './schema/api';
export * from './schema/artist-profiles';
export * from './schema/auth';
export * from './schema/billing';
export * from './schema/catalogue-imports';
export * from './schema/content-id';
export * from './schema/content-id-claims';
export * from './schema/contracts';
export * from './schema/delivery';
export * from './schema/journal';
export * from './schema/lapse-policy';
export * from './schema/payouts';
export * from './schema/platform';
export * from './schema/release-updates';
export * from './schema/releases';
export * from './schema/royalties';
export * from './schema/splits';
export * from './schema/staff-notifications';
export * from './schema/support';
export * from './schema/tax';
export * from './schema/team';
export * from './schema/wallet';
