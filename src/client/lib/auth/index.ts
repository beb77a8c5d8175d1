/** Sign-in on the client: the keycloak-js wrapper and the identity kept on the device. */
export { AuthClient, type KeycloakLike } from './auth-client';
export { readUser, type AuthUser } from './local-identity';
export { checkBasicCredentials, readBasicCredentials, writeBasicCredentials, type BasicCredentials } from './basic-credentials';
export { clearIdentity, writeIdentity } from './local-identity';
