// What happens to content on its way to the public: word filters on every
// write of user text, holds for moderation, and the published counters kept
// in step inside the writer's transaction.
//
// A topic's status mirrors its first post's: a topic is pending exactly while
// its opening message (or its title) waits for a moderator.
import { type Clock, isoNow } from '../clock.ts';
import type { Transaction } from 'kysely';
import type { Database } from '../db/schema.ts';
import type { FieldErrorBag } from '../http/errors.ts';
import type { ForumRepository } from './repository.ts';
import { blockedMessage, type ContentType, type TextScreen } from '../word-filters/text-screen.ts';

export class Publishing {
  readonly #clock: Clock;
  readonly #repository: ForumRepository;
  readonly #screen: TextScreen;

  constructor(repository: ForumRepository, screen: TextScreen, clock: Clock) {
    this.#clock = clock;
    this.#repository = repository;
    this.#screen = screen;
  }

  /** Runs the word filters on one field: block → a field error; moderate → the rule that holds it. */
  async screenField(errors: FieldErrorBag, field: string, text: string, type: ContentType): Promise<{ heldBy: number | null }> {
    const result = await this.#screen.check(text, type);
    if (result.action === 'block') {
      errors.add(field, blockedMessage(field));
      return { heldBy: null };
    }
    if (result.action === 'moderate') {
      const rule = result.matches.find((match) => match.filter_type === 'moderate');
      return { heldBy: rule?.filter_id ?? 0 };
    }
    return { heldBy: null };
  }

  /** Puts a published post (and, for an opening post, its topic) back into the moderation queue. */
  async hold(trx: Transaction<Database>, postId: number, filterId: number): Promise<void> {
    const post = await this.#repository.findPost(postId, trx);
    const topic = post === undefined ? undefined : await this.#repository.findTopic(post.topic_id, trx);
    if (post === undefined || topic === undefined) return;
    await this.#repository.updatePost(postId, { status: 'pending', held_by_filter_id: filterId }, trx);
    if (post.status !== 'published' || topic.status !== 'published') return;
    const opening = (await this.#repository.firstPostId(topic.id, trx)) === postId;
    if (opening) {
      await this.#repository.updateTopic(topic.id, { status: 'pending' }, trx);
      await this.#repository.adjustForumCounts(topic.forum_id, -1, -topic.posts_count, trx);
    } else {
      await this.#repository.adjustTopicPosts(topic.id, -1, trx);
      await this.#repository.adjustForumCounts(topic.forum_id, 0, -1, trx);
    }
  }

  /** Counters and activity for content that just became public. (Bonus points come from seeding: tracker/bonus.ts.) */
  async published(trx: Transaction<Database>, forumId: number, topicId: number, added: { topics: number; posts: number }): Promise<void> {
    await this.#repository.adjustForumCounts(forumId, added.topics, added.posts, trx);
    await this.#repository.adjustTopicPosts(topicId, added.posts, trx);
    await this.#repository.updateTopic(topicId, { last_post_at: isoNow(this.#clock) }, trx);
  }
}
