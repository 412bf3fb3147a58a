// `/activate/{user_id}/{key}/`: opening the mailed link shows one button;
// pressing it (POST) activates the account. Mail scanners that follow links
// therefore cannot use the key up. A wrong key is a 404, an expired or used
// one a 410.
import { parseId, loginPath, passwordRecoveryPath, registerPath } from '../../urls/paths.ts';
import { pageNotFound, type FixedPage } from '../../urls/semantic-routes.ts';
import { html } from '../../web/html.ts';
import { csrfInput, sendPage } from '../../web/page.ts';
import type { AccountPageDeps } from './deps.ts';
import { withKey, type KeyProblemTexts } from './key-problem.ts';

const PROBLEMS: KeyProblemTexts = {
  title: 'Activation link not valid',
  messages: {
    unknown: 'This activation link is not valid. Check that you copied the whole link from the mail.',
    expired: 'This activation link has expired. Ask for a new one through password recovery with your e-mail address.',
    used: 'This activation link was already used. If your account is active, you can log in.',
  },
  next: html`<p><a href="${loginPath()}">Log in</a> · <a href="${passwordRecoveryPath()}">Password recovery</a> · <a href="${registerPath()}">Register</a></p>`,
};

export function activationPage({ accounts }: AccountPageDeps): FixedPage {
  return {
    async serve(request, reply, visit) {
      const userId = parseId(visit.params['userId'] ?? '');
      const key = visit.params['key'] ?? '';
      if (userId === null) throw pageNotFound();
      const noindex = html`<meta name="robots" content="noindex">`;
      return withKey(request, reply, PROBLEMS, async () => {
        if (request.method === 'POST') {
          const user = await accounts.activate(userId, key);
          return sendPage(request, reply, {
            title: 'Account activated',
            head: noindex,
            body: html`<h1>Account activated</h1>
<p class="notice ok" role="status">Welcome, ${user.username}! Your account is active.</p>
<p><a class="button" href="${loginPath()}">Log in</a></p>`,
          });
        }
        const user = await accounts.checkActivation(userId, key);
        return sendPage(request, reply, {
          title: 'Activate your account',
          canonical: visit.canonicalPath,
          head: noindex,
          body: html`<h1>Activate your account</h1>
<form method="post" action="${visit.canonicalPath}" class="stacked">
${csrfInput(request, reply)}
<p>Activate the account <strong>${user.username}</strong>?</p>
<div><button type="submit">Activate my account</button></div>
</form>`,
        });
      });
    },
  };
}
