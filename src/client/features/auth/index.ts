/** Sign-in feature: session state, the session runner, sign-out, and their UI. */
export * from './auth-slice';
export { getAuthClient, startAuthSession, type AuthSessionDeps } from './auth-session';
export { signOut, type SignOutOutcome } from './sign-out';
export { useAuthSession } from './use-auth-session';
export { SignInBanner } from './components/sign-in-banner';
export { SignOutDialog } from './components/sign-out-dialog';
