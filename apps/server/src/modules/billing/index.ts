/**
 * Billing (records 040-042): plans, checkout and the payment providers' events. No other module uses a part
 * of it, so this front door offers nothing yet: its routes are wired by app.ts. What another module comes
 * to need of it is exported here and imported from here.
 */
export {};
