/**
 * How requests authenticate (docs/architecture.md, Roles: bearer token or basic credentials when configured,
 * none by default). The auth feature (lib/auth, features/auth) owns the session; it registers a
 * provider here so the api layer never imports it (lib must not know features).
 */
export type Credentials = { kind: 'bearer'; token: string } | { kind: 'basic'; username: string; password: string } | null;

export type CredentialsProvider = () => Credentials | Promise<Credentials>;
/** Tries to renew the session (token refresh); resolves true when new credentials are in place. */
export type AuthRefresher = () => Promise<boolean>;

let credentialsProvider: CredentialsProvider = () => null;
let authRefresher: AuthRefresher | null = null;

/** Called once by the auth layer; the default sends no credentials. */
export function setCredentialsProvider(provider: CredentialsProvider | null): void {
  credentialsProvider = provider ?? (() => null);
}

export function getCredentialsProvider(): CredentialsProvider {
  return credentialsProvider;
}

/** Called once by the auth layer so a 401 during sync can ask for a token refresh. */
export function setAuthRefresher(refresher: AuthRefresher | null): void {
  authRefresher = refresher;
}

export async function refreshAuthDefault(): Promise<boolean> {
  if (!authRefresher) return false;
  try {
    return await authRefresher();
  } catch {
    // A failed refresh means "cannot renew now": the caller keeps its work until sign-in.
    return false;
  }
}

/** The Authorization header value for credentials, or undefined for none. */
export function authorizationHeader(credentials: Credentials): string | undefined {
  if (!credentials) return undefined;
  if (credentials.kind === 'bearer') return `Bearer ${credentials.token}`;
  const raw = `${credentials.username}:${credentials.password}`;
  // btoa only takes Latin-1; encode UTF-8 first so Slovenian letters in passwords survive.
  const bytes = new TextEncoder().encode(raw);
  let binary = '';
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return `Basic ${btoa(binary)}`;
}
