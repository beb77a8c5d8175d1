/** Sign-in feature: session state, the session runner, sign-out, and their UI. */
export * from './auth-slice';
export { getActiveSession, getAuthClient, startAuthSession, type ActiveSession, type AuthSessionDeps, type ClientAuthMode } from './auth-session';
export { signOut, type SignOutOutcome } from './sign-out';
export { useAuthSession } from './use-auth-session';
export { SignInBanner } from './components/sign-in-banner';
export { SignOutDialog } from './components/sign-out-dialog';
export { BasicSignInForm } from './components/basic-sign-in-form';
