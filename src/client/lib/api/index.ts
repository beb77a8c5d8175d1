/**
 * lib/api: the single RTK Query api (api.ts) with every API call injected, the base query
 * (errors mapped to the error catalogue) and the credentials hook the auth layer fills in.
 */
export { api } from './api';
export { testApi } from './test-endpoint';
export { publicAppApi } from './public-app';
export { recordsApi } from './records';
export { featuresApi } from './features';
export * from './base-query';
export * from './credentials';
export { sessionRenewed } from './auth-events';
