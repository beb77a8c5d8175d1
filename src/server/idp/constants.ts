/**
 * Names and paths of the embedded identity provider. They copy Keycloak's URL layout so that
 * keycloak-js (configured from /keycloak.json) talks to us unchanged, and a real Keycloak can take
 * over by editing keycloak.json / AUTH=keycloak without touching the client.
 */

/** `auth-server-url` path on our own origin (Keycloak < 17 style, which keycloak.json carries). */
export const AUTH_SERVER_PATH = '/auth';
export const REALM = 'moj-travnik';
/** The public (no secret) client the PWA signs in with. */
export const CLIENT_ID = 'moj-travnik-app';
/** Audience of access tokens for our API; checked by the server on every /api call. */
export const API_AUDIENCE = 'moj-travnik-api';
/**
 * Resource indicator (RFC 8707) of the API. oidc-provider needs an absolute URI here; the
 * token's `aud` is API_AUDIENCE.
 */
export const API_RESOURCE = 'urn:moj-travnik:api';
/** Scopes granted to the first-party app without a consent screen. */
export const APP_SCOPES = 'openid profile email';

/** Path (on any origin) under which the realm lives: /auth/realms/moj-travnik */
export const REALM_PATH = `${AUTH_SERVER_PATH}/realms/${REALM}`;
/** Keycloak's protocol endpoints, relative to the realm path. */
const OIDC_PATH = '/protocol/openid-connect';
export const ROUTES = {
  authorization: `${OIDC_PATH}/auth`,
  token: `${OIDC_PATH}/token`,
  end_session: `${OIDC_PATH}/logout`,
  userinfo: `${OIDC_PATH}/userinfo`,
  jwks: `${OIDC_PATH}/certs`,
  revocation: `${OIDC_PATH}/revoke`,
  introspection: `${OIDC_PATH}/token/introspect`,
  pushed_authorization_request: `${OIDC_PATH}/ext/par/request`,
} as const;
/** Our login page (Keycloak serves its forms under /login-actions too). */
export const LOGIN_ACTIONS_PATH = '/login-actions';

/** A farmer's one-time activation link (`…/login-actions/activate/<token>`): valid this long, single use. */
export const ACTIVATION_PATH = `${LOGIN_ACTIONS_PATH}/activate`;
export const ACTIVATION_TTL_S = 7 * 24 * 60 * 60;
/** Passwords set on the activation page: at least this long; the upper bound keeps scrypt's input sane. */
export const PASSWORD_MIN_LENGTH = 8;
export const PASSWORD_MAX_LENGTH = 200;

/** Default token lifetimes (seconds); tests shorten the access token to see a refresh. */
export const DEFAULT_TTL = {
  accessToken: 5 * 60,
  idToken: 60 * 60,
  /** A farmer may stay in the field for days; the refresh token keeps the session alive. */
  refreshToken: 30 * 24 * 60 * 60,
  session: 30 * 24 * 60 * 60,
  interaction: 60 * 60,
  authorizationCode: 60,
  grant: 30 * 24 * 60 * 60,
} as const;

export function issuerFor(origin: string): string {
  return `${origin.replace(/\/+$/, '')}${REALM_PATH}`;
}
