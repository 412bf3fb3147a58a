// A tiny cookie-keeping client over app.inject, for page tests that log in
// and post forms the way a browser does.
import type { TestApp } from './app.ts';
import { multipart } from './images.ts';

export interface PageResponse {
  status: number;
  body: string;
  headers: Record<string, string | string[] | number | undefined>;
  location: string | undefined;
  setCookies: Array<{ name: string; value: string; httpOnly?: boolean; secure?: boolean; sameSite?: string }>;
}

export class Browser {
  readonly cookies = new Map<string, string>();
  readonly #t: TestApp;
  readonly #headers: Record<string, string>;

  constructor(t: TestApp, headers: Record<string, string> = {}) {
    this.#t = t;
    this.#headers = headers;
  }

  get(url: string): Promise<PageResponse> {
    return this.request('GET', url);
  }

  /**
   * Posts a form, adding the CSRF token the last page carried unless `_csrf`
   * is given. A list value repeats its field (checkbox groups).
   */
  post(url: string, form: Record<string, string | string[]>, headers: Record<string, string> = {}): Promise<PageResponse> {
    return this.request('POST', url, { _csrf: this.csrf ?? '', ...form }, headers);
  }

  /** Posts a multipart form (a file upload) with the last page's CSRF token, as a browser sends a form with enctype="multipart/form-data". */
  async postFile(url: string, fields: Record<string, string>, file: { bytes: Buffer; name: string; type: string } | undefined): Promise<PageResponse> {
    const body = await multipart({ _csrf: this.csrf ?? '', ...fields, ...(file === undefined ? {} : { file }) });
    return this.#send('POST', url, body.headers, body.payload);
  }

  /** The CSRF token of the last page (its meta tag). */
  csrf: string | undefined;

  async request(
    method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE',
    url: string,
    form?: Record<string, string | string[]>,
    headers: Record<string, string> = {},
  ): Promise<PageResponse> {
    const payload =
      form === undefined
        ? undefined
        : new URLSearchParams(Object.entries(form).flatMap(([key, value]) => (Array.isArray(value) ? value : [value]).map((v): [string, string] => [key, v])));
    return this.#send(method, url, { ...headers, ...(form ? { 'content-type': 'application/x-www-form-urlencoded' } : {}) }, payload?.toString());
  }

  async #send(
    method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE',
    url: string,
    headers: Record<string, string>,
    payload: string | Buffer | undefined,
  ): Promise<PageResponse> {
    const response = await this.#t.app.inject({
      method,
      url,
      headers: { ...this.#headers, ...headers },
      cookies: Object.fromEntries(this.cookies),
      ...(payload === undefined ? {} : { payload }),
    });
    for (const cookie of response.cookies as PageResponse['setCookies']) {
      if (cookie.value === '') this.cookies.delete(cookie.name);
      else this.cookies.set(cookie.name, cookie.value);
    }
    const token = /<meta name="csrf-token" content="([^"]+)">/.exec(response.body)?.[1];
    if (token !== undefined) this.csrf = token;
    const location = response.headers['location'];
    return {
      status: response.statusCode,
      body: response.body,
      headers: response.headers,
      location: typeof location === 'string' ? location : undefined,
      setCookies: response.cookies as PageResponse['setCookies'],
    };
  }

  /** Opens /login/ and submits it; resolves to the response of the form post. */
  async logIn(username: string, password: string, next?: string): Promise<PageResponse> {
    await this.get(next === undefined ? '/login/' : `/login/?next=${encodeURIComponent(next)}`);
    return this.post('/login/', { username, password, ...(next === undefined ? {} : { next }) });
  }
}
