// Turns rows into resources as they are displayed now: replacement rules and
// emoji are applied at read time, so a changed rule or emoji shows everywhere.
import type { Static } from 'typebox';
import type { EmojiFinder } from './render.ts';
import { renderBody, renderInline } from './render.ts';
import type { PostWithAuthor, TopicWithAuthor } from './repository.ts';
import { postResource, topicResource, type PostResource, type TopicResource } from './resource.ts';
import type { TextScreen } from './text-screen.ts';
import { html, type SafeHtml } from '../web/html.ts';

export class ForumPresenter {
  readonly #screen: TextScreen;
  readonly #emoji: () => Promise<EmojiFinder>;

  constructor(screen: TextScreen, emoji: () => Promise<EmojiFinder>) {
    this.#screen = screen;
    this.#emoji = emoji;
  }

  /** The title with replacement rules applied: what pages show and slugs are made from. */
  async displayTitle(title: string): Promise<string> {
    return (await this.#screen.check(title, 'topics')).text;
  }

  async topic(row: TopicWithAuthor): Promise<Static<typeof TopicResource>> {
    const find = await this.#emoji();
    const title = await this.displayTitle(row.title);
    return topicResource(row, title, renderInline(title, find).value);
  }

  async topics(rows: readonly TopicWithAuthor[]): Promise<Array<Static<typeof TopicResource>>> {
    return Promise.all(rows.map((row) => this.topic(row)));
  }

  async post(row: PostWithAuthor, topic: { id: number; title: string }): Promise<Static<typeof PostResource>> {
    const find = await this.#emoji();
    const body = (await this.#screen.check(row.body, 'posts')).text;
    return postResource(row, renderBody(body, find).value, { id: topic.id, title: await this.displayTitle(topic.title) });
  }

  /** A signature as shown under posts and on profiles: `signatures` replacement rules applied, rendered like a post body. */
  async signature(text: string): Promise<SafeHtml> {
    if (text.trim() === '') return html``;
    const find = await this.#emoji();
    return renderBody((await this.#screen.check(text, 'signatures')).text, find);
  }

  async posts(rows: readonly PostWithAuthor[], topic: { id: number; title: string }): Promise<Array<Static<typeof PostResource>>> {
    const display = { id: topic.id, title: await this.displayTitle(topic.title) };
    const find = await this.#emoji();
    return Promise.all(
      rows.map(async (row) => postResource(row, renderBody((await this.#screen.check(row.body, 'posts')).text, find).value, display)),
    );
  }
}
