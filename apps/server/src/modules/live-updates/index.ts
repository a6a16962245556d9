/**
 * Live updates (record 043): server-sent events from LISTEN/NOTIFY to the signed-in pages. No other module
 * uses a part of it, so this front door offers nothing yet: its routes are wired by app.ts. What another
 * module comes to need of it is exported here and imported from here.
 */
export {};
