/**
 * AUTH=basic on the client (basic credentials when configured). The password is kept
 * for this tab only (sessionStorage) — never in localStorage, where it would outlive the visit;
 * the user (`user`) is stored like in the token mode so the app still opens offline as them.
 */
import { authorizationHeader } from '../api/credentials';

export interface BasicCredentials {
  username: string;
  password: string;
}

const KEY = 'basicCredentials';

export function readBasicCredentials(storage: Storage | null): BasicCredentials | null {
  try {
    const raw = storage?.getItem(KEY);
    if (!raw) return null;
    const parsed = JSON.parse(raw) as BasicCredentials;
    return typeof parsed.username === 'string' && typeof parsed.password === 'string' ? parsed : null;
  } catch {
    return null;
  }
}

export function writeBasicCredentials(storage: Storage | null, credentials: BasicCredentials | null): void {
  try {
    if (credentials) storage?.setItem(KEY, JSON.stringify(credentials));
    else storage?.removeItem(KEY);
  } catch {
    // Blocked storage: the credentials live in memory for this page only.
  }
}

/** Checks credentials against the server: the roles call answers 200 for a known user. */
export async function checkBasicCredentials(
  credentials: BasicCredentials,
  projectId: number,
  fetchImpl: typeof fetch = fetch,
): Promise<'ok' | 'rejected' | 'unreachable'> {
  const authorization = authorizationHeader({ kind: 'basic', ...credentials })!;
  try {
    const response = await fetchImpl(`/api/PublicApp/${projectId}/roles`, { headers: { authorization } });
    if (response.ok) return 'ok';
    return response.status === 401 ? 'rejected' : 'unreachable';
  } catch {
    return 'unreachable';
  }
}
