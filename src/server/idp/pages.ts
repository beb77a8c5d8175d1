/**
 * HTML of the identity provider's pages (login, logout, error): Slovenian, phone-first, no
 * external assets (the first sign-in may happen on a weak connection and nothing here may come
 * from the internet), labelled inputs and an error announced to screen readers (role="alert").
 */
import { createHash } from 'node:crypto';
import { fillText, slAuth, slSeasonServer } from '../../common/i18n/sl';
import { PASSWORD_MIN_LENGTH } from './constants';

function escapeHtml(value: unknown): string {
  return String(value ?? '')
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&#39;');
}

const STYLE = `
*{box-sizing:border-box}
html{-webkit-text-size-adjust:100%}
body{margin:0;min-height:100vh;font-family:system-ui,-apple-system,"Segoe UI",Roboto,Ubuntu,sans-serif;
 font-size:18px;line-height:1.4;color:#1d2a14;background:#eef3e6;display:flex;align-items:flex-start;justify-content:center}
main{width:100%;max-width:26rem;margin:2rem 1rem;padding:1.5rem;background:#fff;border-radius:12px;box-shadow:0 2px 8px rgba(0,0,0,.12)}
h1{font-size:1.6rem;margin:0 0 .5rem;color:#2f5d1e}
p{margin:.5rem 0 1rem}
label{display:block;font-weight:600;margin:1rem 0 .25rem}
input{width:100%;min-height:48px;padding:.6rem .75rem;font-size:1.1rem;border:2px solid #6b7f5c;border-radius:8px;background:#fff;color:#111}
input:focus{outline:3px solid #f0a202;outline-offset:1px;border-color:#2f5d1e}
button,.button{display:block;width:100%;min-height:48px;margin-top:1.5rem;padding:.75rem;font-size:1.1rem;font-weight:700;
 color:#fff;background:#2f5d1e;border:0;border-radius:8px;cursor:pointer;text-align:center;text-decoration:none}
button.secondary{background:#fff;color:#2f5d1e;border:2px solid #2f5d1e;margin-top:.75rem}
button:focus-visible,.button:focus-visible{outline:3px solid #f0a202;outline-offset:2px}
.error{margin:1rem 0 0;padding:.75rem;border-left:6px solid #b3261e;background:#fdecea;color:#7a1410;font-weight:600}
.demo{margin-top:1.5rem;font-size:.95rem;color:#44513a}
.demo ul{padding-left:1.2rem;margin:.25rem 0}
.brand{display:flex;align-items:center;gap:.5rem;margin-bottom:1rem;font-weight:700;color:#2f5d1e}
`;

/** A CSP source allowing exactly this inline text. */
const inlineHash = (text: string) => `'sha256-${createHash('sha256').update(text).digest('base64')}'`;

/**
 * Content-Security-Policy of these pages: nothing from anywhere, no script, the one inline style
 * allowed by its hash, forms posting only to this origin, never inside a frame.
 */
export const PAGE_POLICY = `default-src 'none'; style-src ${inlineHash(STYLE)}; img-src data:; form-action 'self'; frame-ancestors 'none'; base-uri 'none'`;

/** Submits oidc-provider's logout form as soon as the page loads (the app asked for the logout). */
const SUBMIT_LOGOUT = "document.getElementById('op.logoutForm').submit()";

/**
 * The policy of every other answer under the provider's path: the automatic logout page may run
 * its one-line script (by hash). oidc-provider adds the hash of its own auto-submitting form
 * (form_post, a logout without a session) to this script-src itself.
 */
export const PROVIDER_POLICY = `${PAGE_POLICY}; script-src ${inlineHash(SUBMIT_LOGOUT)}`;

const LOGO = `<svg aria-hidden="true" width="32" height="32" viewBox="0 0 32 32"><circle cx="16" cy="16" r="15" fill="#2f5d1e"/><path d="M6 24c4-8 8-11 10-18 2 7 6 10 10 18z" fill="#9ccc65"/></svg>`;

function layout(title: string, body: string): string {
  return `<!DOCTYPE html>
<html lang="sl">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex">
<title>${escapeHtml(title)}</title>
<style>${STYLE}</style>
</head>
<body>
<main>
<div class="brand">${LOGO}<span>Moj travnik</span></div>
${body}
</main>
</body>
</html>`;
}

export interface LoginPageInput {
  action: string;
  login?: string;
  error?: string;
  demoAccounts?: readonly string[];
}

export function loginPage({ action, login = '', error, demoAccounts }: LoginPageInput): string {
  const t = slAuth.login;
  const errorId = 'login-error';
  const described = error ? ` aria-describedby="${errorId}" aria-invalid="true"` : '';
  const demo = demoAccounts?.length
    ? `<section class="demo" aria-label="${escapeHtml(t.demoHeading)}"><strong>${escapeHtml(t.demoHeading)}</strong><ul>${demoAccounts
        .map((a) => `<li>${escapeHtml(a)}</li>`)
        .join('')}</ul></section>`
    : '';
  return layout(
    t.title,
    `<h1>${escapeHtml(t.heading)}</h1>
<p>${escapeHtml(t.intro)}</p>
${error ? `<p class="error" id="${errorId}" role="alert">${escapeHtml(error)}</p>` : ''}
<form method="post" action="${escapeHtml(action)}" novalidate>
<label for="username">${escapeHtml(t.loginLabel)}</label>
<input id="username" name="username" type="text" inputmode="email" autocomplete="username" autocapitalize="none" spellcheck="false" required value="${escapeHtml(login)}"${described}${error ? '' : ' autofocus'}>
<label for="password">${escapeHtml(t.passwordLabel)}</label>
<input id="password" name="password" type="password" autocomplete="current-password" required${described}${error ? ' autofocus' : ''}>
<button type="submit" id="kc-login">${escapeHtml(t.submit)}</button>
</form>
${demo}`,
  );
}

export function messagePage(title: string, heading: string, text: string, link?: { href: string; label: string }): string {
  return layout(
    title,
    `<h1>${escapeHtml(heading)}</h1><p role="status">${escapeHtml(text)}</p>${
      link ? `<a class="button" href="${escapeHtml(link.href)}">${escapeHtml(link.label)}</a>` : ''
    }`,
  );
}

/**
 * The logout the app asked for (keycloak-js sends id_token_hint): like Keycloak, signs out without
 * asking — the form is submitted by script, or by the button when scripts are off. Served with
 * PROVIDER_POLICY.
 */
export function autoLogoutPage(form: string): string {
  const autoForm = form.replace('</form>', '<input type="hidden" name="logout" value="yes"></form>');
  return `<!DOCTYPE html><html lang="sl"><head><meta charset="utf-8"><title>${escapeHtml(slAuth.logout.title)}</title></head><body>${autoForm}<noscript><button type="submit" form="op.logoutForm">${escapeHtml(
    slAuth.logout.confirm,
  )}</button></noscript><script>${SUBMIT_LOGOUT}</script></body></html>`;
}

/** oidc-provider hands us its hidden logout form (id "op.logoutForm"); we add Slovenian buttons. */
export function logoutPage(form: string): string {
  const t = slAuth.logout;
  return layout(
    t.title,
    `<h1>${escapeHtml(t.question)}</h1>
${form}
<button type="submit" form="op.logoutForm" value="yes" name="logout" autofocus>${escapeHtml(t.confirm)}</button>
<button type="submit" form="op.logoutForm" class="secondary">${escapeHtml(t.cancel)}</button>`,
  );
}

export interface ActivationPageInput {
  action: string;
  email: string;
  error?: string;
}

/** The farmer's "set your password" page behind a one-time activation link (same look as the login page). */
export function activationPage({ action, email, error }: ActivationPageInput): string {
  const t = slSeasonServer.activation;
  const errorId = 'activation-error';
  const described = error ? ` aria-describedby="${errorId}" aria-invalid="true"` : '';
  return layout(
    t.title,
    `<h1>${escapeHtml(t.heading)}</h1>
<p>${escapeHtml(fillText(t.intro, { email, min: PASSWORD_MIN_LENGTH }))}</p>
${error ? `<p class="error" id="${errorId}" role="alert">${escapeHtml(error)}</p>` : ''}
<form method="post" action="${escapeHtml(action)}" novalidate>
<input type="hidden" name="username" autocomplete="username" value="${escapeHtml(email)}">
<label for="password">${escapeHtml(t.passwordLabel)}</label>
<input id="password" name="password" type="password" autocomplete="new-password" minlength="${PASSWORD_MIN_LENGTH}" required${described} autofocus>
<label for="repeat">${escapeHtml(t.repeatLabel)}</label>
<input id="repeat" name="repeat" type="password" autocomplete="new-password" minlength="${PASSWORD_MIN_LENGTH}" required${described}>
<button type="submit" id="activate">${escapeHtml(t.submit)}</button>
</form>`,
  );
}
