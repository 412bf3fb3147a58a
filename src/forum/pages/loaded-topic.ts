// A topic as its pages load it: the row the reader may see and its heading.
// An id of a topic merged into another (docs/moderation.md, "Split and
// merge") loads that one, so the old address answers 301 to the target's
// canonical one, as a stale slug does.
import type { FastifyRequest } from 'fastify';
import { ModelNotFoundError } from '../../http/errors.ts';
import { PER_PAGE_DEFAULT } from '../../http/pagination.ts';
import type { ForumPresenter, TopicHeading } from '../presenter.ts';
import type { TopicWithAuthor } from '../repository.ts';
import type { ForumService } from '../service.ts';

/** Posts on a page of a topic (and of its split page, so that their pages match). */
export const POSTS_PER_PAGE = PER_PAGE_DEFAULT;

export interface LoadedTopic {
  row: TopicWithAuthor;
  /** The displayed title (replacement rules applied) and the canonical path made from it. */
  heading: TopicHeading;
}

export async function loadTopic(forum: ForumService, presenter: ForumPresenter, id: number, request: FastifyRequest): Promise<LoadedTopic> {
  let row: TopicWithAuthor;
  try {
    row = await forum.getTopic(id, request.user);
  } catch (error) {
    const target = error instanceof ModelNotFoundError ? await forum.splitMerge.redirectOf(id) : undefined;
    if (target === undefined) throw error;
    row = await forum.getTopic(target, request.user);
  }
  return { row, heading: await presenter.heading(row) };
}
