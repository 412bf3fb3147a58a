// `/activate/{user_id}/{key}/`: opening the mailed link shows one button;
// pressing it (POST) activates the account. Mail scanners that follow links
// therefore cannot use the key up. A wrong key is a 404, an expired or used
// one a 410.
import { tHtml } from '../../web/translated.ts';
import { t } from '../../i18n/messages.ts';
import { parseId, loginPath, passwordRecoveryPath, registerPath } from '../../urls/paths.ts';
import { pageNotFound, type FixedPage } from '../../urls/semantic-routes.ts';
import { html } from '../../web/html.ts';
import { csrfInput, sendPage } from '../../web/page.ts';
import type { AccountPageDeps } from './deps.ts';
import { withKey, type KeyProblemTexts } from './key-problem.ts';

/** In the reader's language, so made for each request. */
function problems(): KeyProblemTexts {
  return {
    title: t('activation.invalid_title'),
    messages: { unknown: t('activation.unknown'), expired: t('activation.expired'), used: t('activation.used') },
    next: html`<p><a href="${loginPath()}">${t('login.title')}</a> · <a href="${passwordRecoveryPath()}">${t('activation.recovery')}</a> · <a href="${registerPath()}">${t('layout.register')}</a></p>`,
  };
}

export function activationPage({ accounts }: AccountPageDeps): FixedPage {
  return {
    async serve(request, reply, visit) {
      const userId = parseId(visit.params['userId'] ?? '');
      const key = visit.params['key'] ?? '';
      if (userId === null) throw pageNotFound();
      const noindex = html`<meta name="robots" content="noindex">`;
      return withKey(request, reply, problems(), async () => {
        if (request.method === 'POST') {
          const user = await accounts.activate(userId, key);
          return sendPage(request, reply, {
            title: t('activation.done_title'),
            head: noindex,
            body: html`<h1>${t('activation.done_title')}</h1>
<p class="notice ok" role="status">${t('activation.welcome', { name: user.username })}</p>
<p><a class="button" href="${loginPath()}">${t('login.title')}</a></p>`,
          });
        }
        const user = await accounts.checkActivation(userId, key);
        return sendPage(request, reply, {
          title: t('activation.title'),
          canonical: visit.canonicalPath,
          head: noindex,
          body: html`<h1>${t('activation.title')}</h1>
<form method="post" action="${visit.canonicalPath}" class="stacked">
${csrfInput(request, reply)}
<p>${tHtml('activation.question', { name: html`<strong>${user.username}</strong>` })}</p>
<div><button type="submit">${t('activation.submit')}</button></div>
</form>`,
        });
      });
    },
  };
}
