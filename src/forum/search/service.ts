// Search of topics and posts (docs/search.md): the reader's words and filters
// checked, the index asked for one page of what this viewer may see, and each
// post found shown as a snippet of its displayed text (replacement rules
// applied) with the matching words marked.
import type { AuthUser } from '../../auth/service.ts';
import { FieldErrorBag, ValidationError } from '../../http/errors.ts';
import type { PageRequest } from '../../http/pagination.ts';
import { fieldName } from '../../i18n/field-names.ts';
import { t } from '../../i18n/messages.ts';
import type { SafeHtml } from '../../web/html.ts';
import { raw } from '../../web/html.ts';
import { acrossForums, type Listed } from '../access.ts';
import type { ForumAccess } from '../forum-access.ts';
import { bbcodeText } from '../bbcode/bbcode.ts';
import type { ForumPresenter, TopicHeading } from '../presenter.ts';
import type { ForumRepository } from '../repository.ts';
import { highlightTerms, parseQuery, type SearchIn } from './query.ts';
import type { FoundPost, SearchRepository, SearchSort, SortOrder } from './repository.ts';
import { snippetHtml } from './snippet.ts';

export const SEARCH_MAX_LENGTH = 200;

/** What a reader asks for, as the API's query and the page's form give it. */
export interface SearchRequest {
  search: string;
  in: SearchIn;
  forumId: number | null;
  author: string | null;
  /** Days (YYYY-MM-DD, UTC), both included. */
  from: string | null;
  to: string | null;
  sort: SearchSort;
  order: SortOrder | null;
}

export interface SearchHit {
  post: FoundPost;
  topic: TopicHeading;
  snippet: SafeHtml;
}

/** Finds a member by name: the author filter. */
export type MemberByName = (name: string) => Promise<{ id: number } | undefined>;

const DAY = /^(\d{4})-(\d{2})-(\d{2})$/;

export class Search {
  readonly #index: SearchRepository;
  readonly #forum: ForumRepository;
  readonly #presenter: ForumPresenter;
  readonly #memberByName: MemberByName;
  readonly #access: ForumAccess;

  constructor(index: SearchRepository, forum: ForumRepository, presenter: ForumPresenter, access: ForumAccess, memberByName: MemberByName) {
    this.#index = index;
    this.#forum = forum;
    this.#presenter = presenter;
    this.#access = access;
    this.#memberByName = memberByName;
  }

  /**
   * Finds only in the forums the viewer may read (docs/access.md), in SQL, so
   * the total counts only those too. A forum filter naming a forum the
   * viewer may not view is refused as an unknown forum is; one they may view
   * but not read finds nothing.
   */
  async find(request: SearchRequest, viewer: AuthUser | null, page: PageRequest): Promise<Listed<SearchHit>> {
    const permissions = await this.#access.of(viewer);
    const errors = new FieldErrorBag();
    const parsed = parseQuery(request.search);
    if (!parsed.ok) errors.add('search', parsed.reason);
    if (request.forumId !== null && (!permissions.may(request.forumId, 'view') || (await this.#forum.findForum(request.forumId)) === undefined))
      errors.add('forum_id', t('validation.selected', { field: fieldName('forum_id') }));
    const authorName = request.author?.trim() ?? '';
    const author = authorName === '' ? undefined : await this.#memberByName(authorName);
    if (authorName !== '' && author === undefined) errors.add('author', t('search.refuse.author'));
    const from = request.from === null ? null : dayStart(request.from, 0);
    const until = request.to === null ? null : dayStart(request.to, 1);
    if (from === undefined) errors.add('from', t('search.refuse.from'));
    if (until === undefined) errors.add('to', t('search.refuse.to'));
    if (typeof from === 'string' && typeof until === 'string' && from >= until) errors.add('to', t('search.refuse.reversed'));
    errors.throwIfAny();
    if (!parsed.ok) throw ValidationError.field('search', parsed.reason);

    const { rows, total } = await this.#index.find(
      parsed.query,
      { in: request.in, forumId: request.forumId, authorId: author?.id ?? null, from: from ?? null, until: until ?? null },
      acrossForums(viewer, permissions),
      request.sort,
      request.order ?? 'desc',
      page.offset,
      page.perPage,
    );
    const terms = highlightTerms(parsed.query);
    const hits = await Promise.all(
      rows.map(async (post) => {
        const [topic, text] = await Promise.all([
          this.#presenter.heading({ id: post.topic_id, title: post.topic_title }),
          this.#presenter.displayBody(post.body),
        ]);
        return { post, topic, snippet: raw(snippetHtml(bbcodeText(text), terms)) };
      }),
    );
    return { rows: hits, total };
  }
}

/** The ISO start of the day, `plusDays` later; undefined for a string that is no calendar day. */
function dayStart(day: string, plusDays: number): string | undefined {
  const match = DAY.exec(day);
  if (match === null) return undefined;
  const [year, month, date] = [Number(match[1]), Number(match[2]), Number(match[3])];
  const at = new Date(Date.UTC(year, month - 1, date));
  if (at.getUTCFullYear() !== year || at.getUTCMonth() !== month - 1 || at.getUTCDate() !== date) return undefined;
  at.setUTCDate(at.getUTCDate() + plusDays);
  return at.toISOString();
}
