// The web login: /login/ starts a session (an HttpOnly cookie), /logout/ ends it.
import { t } from '../../i18n/messages.ts';
import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import { ApiError } from '../../http/errors.ts';
import { checkForm } from '../../http/validation.ts';
import { html } from '../../web/html.ts';
import { localPath } from '../../http/local-path.ts';
import { csrfInput, sendPage } from '../../web/page.ts';
import { SESSION_COOKIE } from '../../auth/guard.ts';
import type { AuthService } from '../../auth/service.ts';

const LoginForm = Type.Object({
  username: Type.String({ minLength: 1, maxLength: 255, notBlank: true }),
  password: Type.String({ minLength: 1, maxLength: 1024 }),
});

export const loginPages: FastifyPluginAsync<{ auth: AuthService }> = async (app, { auth }) => {
  app.get('/login/', async (request, reply) => {
    const next = localPath((request.query as { next?: unknown }).next);
    if (request.user !== null) return reply.redirect(next, 303);
    return loginPage(request, reply, { next });
  });

  app.post('/login/', async (request, reply) => {
    const form = checkForm(LoginForm, request.body);
    // `next` is not checked with the form: whatever it holds, an unsafe value is ignored (localPath), never an error.
    const next = localPath((request.body as { next?: unknown } | undefined)?.next);
    if (!form.ok) {
      return loginPage(request, reply, { next, status: 422, message: t('login.missing'), username: usernameOf(request.body) });
    }
    try {
      const user = await auth.checkCredentials(form.value.username, form.value.password, request.ip);
      await startBrowserSession(auth, user.id, request, reply);
      return reply.redirect(next, 303);
    } catch (error) {
      if (!(error instanceof ApiError)) throw error;
      return loginPage(request, reply, { next, status: error.status, message: error.message, username: form.value.username });
    }
  });

  app.get('/logout/', async (request, reply) => {
    if (request.user === null) return reply.redirect('/', 303);
    return sendPage(request, reply, {
      title: t('logout.title'),
      body: html`<h1>${t('logout.title')}</h1>
<form method="post" action="/logout/" class="stacked">${csrfInput(request, reply)}<p>${t('logout.question', { name: request.user.name })}</p><div><button type="submit">${t('logout.submit')}</button></div></form>`,
    });
  });

  app.post('/logout/', async (request, reply) => {
    if (request.credentials?.kind === 'session') await auth.endSession(request.credentials.idHash);
    reply.clearCookie(SESSION_COOKIE, { path: '/' });
    return reply.redirect('/', 303);
  });
};

/** A new session for this browser: the cookie is HttpOnly, SameSite=Lax, and Secure behind https. */
export async function startBrowserSession(auth: AuthService, userId: number, request: FastifyRequest, reply: FastifyReply): Promise<void> {
  const session = await auth.startSession(userId);
  reply.setCookie(SESSION_COOKIE, session.cookieValue, {
    path: '/',
    httpOnly: true,
    sameSite: 'lax',
    secure: request.protocol === 'https',
    expires: new Date(session.expiresAt),
  });
}

interface LoginPageState {
  next: string;
  status?: number;
  message?: string;
  username?: string;
}

function loginPage(request: FastifyRequest, reply: FastifyReply, state: LoginPageState): FastifyReply {
  return sendPage(request, reply, {
    title: t('login.title'),
    canonical: '/login/',
    status: state.status ?? 200,
    body: html`<h1>${t('login.title')}</h1>
${state.message === undefined ? '' : html`<p class="notice error" role="alert">${state.message}</p>`}
<form method="post" action="/login/" class="stacked">
  ${csrfInput(request, reply)}
  <input type="hidden" name="next" value="${state.next}">
  <div><label for="username">${t('login.username')}</label><input id="username" name="username" type="text" autocomplete="username" required value="${state.username ?? ''}"></div>
  <div><label for="password">${t('login.password')}</label><input id="password" name="password" type="password" autocomplete="current-password" required></div>
  <div><button type="submit">${t('login.submit')}</button></div>
</form>
<p><a href="/password-recovery/">${t('login.forgot')}</a> · <a href="/register/">${t('login.register')}</a></p>`,
  });
}

function usernameOf(body: unknown): string {
  const value = typeof body === 'object' && body !== null ? (body as Record<string, unknown>)['username'] : undefined;
  return typeof value === 'string' ? value : '';
}
