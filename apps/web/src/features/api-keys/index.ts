/** API keys (record 290): the Account → API keys page is routed by app/router.tsx. */
export {};
