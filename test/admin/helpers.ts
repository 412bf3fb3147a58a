// Admin page fixtures: signed-in browsers of each role, and readers for the
// parts of a page the tests look at (field errors, the notice, table rows).
import type { Role } from '../../src/db/schema.ts';
import type { UserRow } from '../../src/users/repository.ts';
import type { TestApp } from '../helpers/app.ts';
import { TEST_PASSWORD, createUser } from '../helpers/auth.ts';
import { Browser } from '../helpers/browser.ts';
import { multipart } from '../helpers/images.ts';
import { HTMLElement } from 'node-html-parser';
import { dom, type Element } from '../helpers/dom.ts';

/** Headers htmx sends with its requests. */
export const HTMX = { 'hx-request': 'true' };

export interface SignedInBrowser {
  browser: Browser;
  user: UserRow;
}

/** A browser logged in through /login/ as a new active user of that role. */
export async function signedInBrowser(t: TestApp, role: Role, name?: string): Promise<SignedInBrowser> {
  const user = await createUser(t, { role, ...(name !== undefined ? { name } : {}) });
  const browser = new Browser(t);
  const login = await browser.logIn(user.username, TEST_PASSWORD);
  if (login.status !== 303) throw new Error(`login failed: ${login.status}`);
  // Any page now carries the session's CSRF token (the login page had the guest one).
  await browser.get('/admin/');
  return { browser, user };
}

/** The message(s) shown under a field of a form (ids are `<form>-<field>-error`). */
export function fieldError(body: string, form: string, field: string): string | undefined {
  const error = dom(body).find(`p.field-error#${form}-${field}-error`);
  if (error === null) return undefined;
  // One message a line: <br> separates them.
  return error.childNodes.map((node) => (node instanceof HTMLElement && node.tagName === 'BR' ? '\n' : node.text)).join('');
}

/** The one-time notice at the top of an admin page: the live region's first paragraph, its kind the class after `notice`. */
export function notice(body: string): { kind: string; text: string } | undefined {
  const paragraph = dom(body).find('#admin-live > p.notice');
  if (paragraph === null) return undefined;
  const kind = paragraph.classList.value.find((name) => name !== 'notice');
  return kind === undefined ? undefined : { kind, text: paragraph.text };
}

/** The table row (`<tr id="…">`) with that id, or undefined. */
export function row(body: string, id: string): Element | undefined {
  return dom(body).find(`tr[id="${id}"]`) ?? undefined;
}

export function unescape(text: string): string {
  return text
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&amp;/g, '&');
}

/** Posts a multipart form (file uploads) with the browser's cookies, as a browser does. */
export async function postMultipart(
  t: TestApp,
  browser: Browser,
  url: string,
  fields: Parameters<typeof multipart>[0],
): Promise<{ status: number; body: string; location: string | undefined }> {
  const body = await multipart({ _csrf: browser.csrf ?? '', ...fields });
  const response = await t.app.inject({ method: 'POST', url, payload: body.payload, headers: body.headers, cookies: Object.fromEntries(browser.cookies) });
  for (const cookie of response.cookies) {
    if (cookie.value === '') browser.cookies.delete(cookie.name);
    else browser.cookies.set(cookie.name, cookie.value);
  }
  const location = response.headers['location'];
  return { status: response.statusCode, body: response.body, location: typeof location === 'string' ? location : undefined };
}
