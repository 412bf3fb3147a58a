// Turns rows into resources as they are displayed now: replacement rules and
// emoji are applied at read time, so a changed rule or emoji shows everywhere.
// Renderings are cached by text (render-cache.ts); invalidate() empties the
// cache and must be called whenever the rules or the emoji catalog change.
import type { Static } from 'typebox';
import { topicPath } from '../urls/paths.ts';
import { raw, type SafeHtml } from '../web/html.ts';
import type { EmojiFinder } from './render.ts';
import { renderBody, renderInline } from './render.ts';
import { RenderCache } from './render-cache.ts';
import type { PostWithAuthor, TopicWithAuthor } from './repository.ts';
import { postResource, topicResource, type PostResource, type TopicResource } from './resource.ts';
import type { ContentType, TextScreen } from './text-screen.ts';

export interface TopicHeading {
  title: string;
  html: SafeHtml;
  path: string;
}

export class ForumPresenter {
  readonly #screen: TextScreen;
  readonly #emoji: () => Promise<EmojiFinder>;
  readonly #titles = new RenderCache();
  readonly #titleHtml = new RenderCache();
  readonly #bodies = new RenderCache(12_000_000);
  readonly #signatures = new RenderCache();

  constructor(screen: TextScreen, emoji: () => Promise<EmojiFinder>) {
    this.#screen = screen;
    this.#emoji = emoji;
  }

  /** Forget every rendering: the rules or the emoji catalog changed. */
  invalidate(): void {
    for (const cache of [this.#titles, this.#titleHtml, this.#bodies, this.#signatures]) cache.clear();
  }

  /** The title with replacement rules applied: what pages show and slugs are made from. */
  displayTitle(title: string): Promise<string> {
    return this.#titles.get(title, async () => (await this.#screen.check(title, 'topics')).text);
  }

  /** How a topic is named on pages: the displayed title, as text and as HTML, and its page's path (slug of the displayed title). */
  async heading(row: { id: number; title: string }): Promise<TopicHeading> {
    const title = this.#titles.peek(row.title) ?? (await this.displayTitle(row.title));
    const titleHtml = this.#titleHtml.peek(row.title) ?? (await this.#titleHtml.get(row.title, async () => renderInline(title, await this.#emoji()).value));
    return { title, html: raw(titleHtml), path: topicPath({ id: row.id, title }) };
  }

  headings(rows: ReadonlyArray<{ id: number; title: string }>): Promise<TopicHeading[]> {
    return Promise.all(rows.map((row) => this.heading(row)));
  }

  async topic(row: TopicWithAuthor): Promise<Static<typeof TopicResource>> {
    const heading = await this.heading(row);
    return topicResource(row, heading.title, heading.html.value);
  }

  async topics(rows: readonly TopicWithAuthor[]): Promise<Array<Static<typeof TopicResource>>> {
    return Promise.all(rows.map((row) => this.topic(row)));
  }

  /** Post bodies as displayed: `posts` replacement rules applied, then paragraphs, links and emoji. */
  async bodies(rows: ReadonlyArray<{ body: string }>): Promise<SafeHtml[]> {
    const cached = rows.map((row) => this.#bodies.peek(row.body));
    if (cached.every((html) => html !== undefined)) return cached.map((html) => raw(html));
    return Promise.all(rows.map(async (row, index) => raw(cached[index] ?? (await this.#rendered(row.body, 'posts')))));
  }

  /** A signature as shown under posts and on profiles: `signatures` replacement rules applied, rendered like a post body. */
  async signature(text: string): Promise<SafeHtml> {
    if (text.trim() === '') return raw('');
    return raw(this.#signatures.peek(text) ?? (await this.#rendered(text, 'signatures')));
  }

  async post(row: PostWithAuthor, topic: { id: number; title: string }): Promise<Static<typeof PostResource>> {
    return postResource(row, await this.#rendered(row.body, 'posts'), { id: topic.id, title: await this.displayTitle(topic.title) });
  }

  async posts(rows: readonly PostWithAuthor[], topic: { id: number; title: string }): Promise<Array<Static<typeof PostResource>>> {
    const display = { id: topic.id, title: await this.displayTitle(topic.title) };
    return Promise.all(rows.map(async (row) => postResource(row, await this.#rendered(row.body, 'posts'), display)));
  }

  #rendered(text: string, type: Extract<ContentType, 'posts' | 'signatures'>): Promise<string> {
    return (type === 'posts' ? this.#bodies : this.#signatures).get(text, async () => {
      const [screened, find] = await Promise.all([this.#screen.check(text, type), this.#emoji()]);
      return renderBody(screened.text, find).value;
    });
  }
}
