/**
 * Actions the auth layer dispatches and other features react to, defined in lib so neither side
 * imports the other (features do not import each other).
 */
import { createAction } from '@reduxjs/toolkit';

/** The user signed in again or a token was renewed: work held for sign-in may go out now. */
export const sessionRenewed = createAction('auth/sessionRenewed');
