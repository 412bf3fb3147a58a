// Pieces several forum pages show: the breadcrumb trail, the list of topics,
// the small one-button forms.
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Static } from 'typebox';
import { ApiError } from '../../http/errors.ts';
import { counted, timeHtml } from '../../web/format.ts';
import { html, raw, type SafeHtml } from '../../web/html.ts';
import { csrfInput } from '../../web/page.ts';
import type { TopicResource } from '../resource.ts';

export interface Crumb {
  label: string;
  href: string;
}

/** Forums › General › (the page itself, named by its h1). */
export function breadcrumb(crumbs: readonly Crumb[]): SafeHtml {
  return html`<nav aria-label="Breadcrumb"><ol class="breadcrumb"><li><a href="/">Forums</a></li>${crumbs.map((crumb) => html`<li><a href="${crumb.href}">${crumb.label}</a></li>`)}</ol></nav>`;
}

export interface TopicListOptions {
  caption: string;
  /** Views counted in memory and not yet written (see view-counter.ts). */
  unwrittenViews: (topicId: number) => number;
  /** Extra last column, e.g. an "Stop watching" button. */
  action?: (topic: Static<typeof TopicResource>) => SafeHtml;
}

export function topicTable(topics: ReadonlyArray<Static<typeof TopicResource>>, options: TopicListOptions): SafeHtml {
  return html`<table class="topics">
<caption>${options.caption}</caption>
<thead><tr><th scope="col">Topic</th><th scope="col">Started by</th><th scope="col">Posts</th><th scope="col">Views</th><th scope="col">Last post</th>${options.action === undefined ? '' : html`<th scope="col"><span class="visually-hidden">Actions</span></th>`}</tr></thead>
<tbody>
${topics.map((topic) => html`<tr${topic.status === 'pending' ? html` class="pending"` : ''}>
<td><a href="${topic.url}">${raw(topic.title_html)}</a>${topic.status === 'pending' ? html` <span class="badge">Waiting for moderation</span>` : ''}</td>
<td>${topic.author === null ? html`<span class="muted">Deleted user</span>` : html`<a href="${topic.author.url}">${topic.author.name}</a>`}</td>
<td>${topic.posts_count}</td>
<td>${topic.views_count + options.unwrittenViews(topic.id)}</td>
<td>${timeHtml(topic.last_post_at)}</td>
${options.action === undefined ? '' : html`<td>${options.action(topic)}</td>`}
</tr>`)}
</tbody>
</table>`;
}

/** A form that is only a button (watch, unwatch): posts `action` (and `fields`) to `target`. */
export function buttonForm(request: FastifyRequest, reply: FastifyReply, target: string, action: string, label: string | SafeHtml, fields: Record<string, string | number> = {}): SafeHtml {
  return html`<form method="post" action="${target}" class="inline">${csrfInput(request, reply)}<input type="hidden" name="action" value="${action}">${Object.entries(fields).map(([name, value]) => html`<input type="hidden" name="${name}" value="${value}">`)}<button type="submit" class="secondary">${label}</button></form>`;
}

export function postsCount(count: number): string {
  return counted(count, 'post', 'posts');
}

/** The `action` field of a posted form; pages with several forms tell them apart by it. */
export function formAction(body: unknown, fallback: string): string {
  const value = typeof body === 'object' && body !== null ? (body as Record<string, unknown>)['action'] : undefined;
  return typeof value === 'string' ? value : fallback;
}

export function unknownAction(): ApiError {
  return new ApiError('BAD_REQUEST', 'This form cannot be handled here. Reload the page and try again.');
}
