/**
 * Post-release updates (record 197): changes to a released release proposed, reviewed and delivered. No
 * other module uses a part of it, so this front door offers nothing yet: its routes are wired by app.ts.
 * What another module comes to need of it is exported here and imported from here.
 */
export {};
