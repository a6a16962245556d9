/** API keys (record 290): the public API's gate asks it who a presented key stands for. */
export { assertManagesKeys, authenticateKey, createApiKey, type KeyCaller } from './service';
