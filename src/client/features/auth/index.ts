/** features/auth: the signed-in user and session (token refresh, sign-out), the sign-in banner and the sign-out dialog. */
export { authSlice, selectAuthUser, selectRoles } from './auth-slice';
export { signOut } from './sign-out';
export { runAuthSession } from './run-auth-session';
export { SignInBanner } from './components/sign-in-banner';
export { SignOutDialog } from './components/sign-out-dialog';
