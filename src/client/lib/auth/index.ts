/** Sign-in on the client: the keycloak-js wrapper and the identity kept on the device. */
export { AuthClient, type AuthClientOptions, type AuthEvent, type KeycloakLike, type StartResult } from './auth-client';
export { decodeClaims, purgeLoginState, readUser, STORAGE_KEYS, type AuthUser } from './local-identity';
export { checkBasicCredentials, readBasicCredentials, writeBasicCredentials, type BasicCredentials } from './basic-credentials';
export { clearIdentity, writeIdentity } from './local-identity';
