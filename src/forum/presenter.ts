// Turns rows into resources as they are displayed now: replacement rules and
// emoji are applied at read time, so a changed rule or emoji shows everywhere.
// Renderings are cached by text (render-cache.ts); invalidate() empties the
// caches and must be called whenever the rules or the emoji catalog change.
//
// A page view never filters a text the rules have already filtered: the
// filtered text is kept by digest (ScreenedTextCache), apart from the HTML,
// whose eviction therefore costs a render, not a check. A text not yet
// filtered is checked in a queue of display checks that lets the event loop
// turn (a zero timeout: unlike setImmediate, which runs in the same turn as
// the I/O before it, this lets timers and I/O run) before any check that
// follows 10 ms of checks, so a page of fifty long posts never holds the
// event loop for more than about one check, and fifty short titles cost no
// fifty timer waits.
import { currentReader } from '../i18n/context.ts';
import { setTimeout as nextTurn } from 'node:timers/promises';
import type { Static } from 'typebox';
import { topicPath } from '../urls/paths.ts';
import { raw, type SafeHtml } from '../web/html.ts';
import type { EmojiFinder } from './render.ts';
import { renderBody, renderInline } from './render.ts';
import { RenderCache, ScreenedTextCache } from './render-cache.ts';
import type { PostWithAuthor, TopicWithAuthor } from './repository.ts';
import { postResource, topicResource, type PostResource, type TopicResource } from './resource.ts';
import type { ContentType, TextScreen } from '../word-filters/text-screen.ts';

/** Display checks run back to back for this long, then let the event loop turn (a check itself takes at most 30 ms). */
const DISPLAY_CHECKS_PER_TURN_MS = 10;

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
  readonly #messages = new RenderCache();
  readonly #lines = new RenderCache();
  readonly #staffTexts = new RenderCache();
  readonly #screened = new ScreenedTextCache();
  /** The last check queued for display (see #filtered), and when the current run of them began. */
  #checks: Promise<void> = Promise.resolve();
  #turnStarted = Number.NEGATIVE_INFINITY;

  constructor(screen: TextScreen, emoji: () => Promise<EmojiFinder>) {
    this.#screen = screen;
    this.#emoji = emoji;
  }

  /** Forget every rendering: the rules or the emoji catalog changed. */
  invalidate(): void {
    for (const cache of [this.#titles, this.#titleHtml, this.#bodies, this.#signatures, this.#messages, this.#lines, this.#staffTexts, this.#screened])
      cache.clear();
  }

  /** The title with replacement rules applied: what pages show and slugs are made from. */
  displayTitle(title: string): Promise<string> {
    return this.#titles.get(title, () => this.#filtered(title, 'topics'));
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
    const cached = rows.map((row) => this.#bodies.peek(readerKey(row.body)));
    if (cached.every((html) => html !== undefined)) return cached.map((html) => raw(html));
    return Promise.all(rows.map(async (row, index) => raw(cached[index] ?? (await this.#rendered(row.body, 'posts')))));
  }

  /**
   * Short texts shown as written with the `posts` replacement rules applied (a poll's question and answers), kept
   * by their text: read on every view of a topic's first page, they cost no hashing once known.
   */
  async displayLines(texts: readonly string[]): Promise<string[]> {
    const known = texts.map((text) => this.#lines.peek(text));
    if (known.every((line) => line !== undefined)) return known as string[];
    return Promise.all(texts.map(async (text, index) => known[index] ?? (await this.#lines.get(text, () => this.#filtered(text, 'posts')))));
  }

  /** A post's text with the `posts` replacement rules applied (what search results quote from). */
  displayBody(body: string): Promise<string> {
    return this.#filtered(body, 'posts');
  }

  /** A signature as shown under posts and on profiles: `signatures` replacement rules applied, rendered like a post body. */
  async signature(text: string): Promise<SafeHtml> {
    if (text.trim() === '') return raw('');
    return raw(this.#signatures.peek(readerKey(text)) ?? (await this.#rendered(text, 'signatures')));
  }

  /** A private message's subject as displayed: `private_messages` replacement rules applied. */
  messageSubject(subject: string): Promise<string> {
    return this.#filtered(subject, 'private_messages');
  }

  /** A private message's text as displayed: `private_messages` replacement rules applied, rendered like a post body. */
  async messageBody(text: string): Promise<SafeHtml> {
    return raw(this.#messages.peek(readerKey(text)) ?? (await this.#rendered(text, 'private_messages')));
  }

  /**
   * A text staff wrote for the whole site (a static page), rendered like a
   * post body. No replacement rules: they screen what members write.
   */
  async staffText(text: string): Promise<SafeHtml> {
    return raw(await this.#staffTexts.get(readerKey(text), async () => renderBody(text, await this.#emoji()).value));
  }

  async post(row: PostWithAuthor, topic: { id: number; title: string }): Promise<Static<typeof PostResource>> {
    return (await this.posts([row], topic))[0]!;
  }

  async posts(rows: readonly PostWithAuthor[], topic: { id: number; title: string }): Promise<Array<Static<typeof PostResource>>> {
    const display = { id: topic.id, title: await this.displayTitle(topic.title) };
    return Promise.all(
      rows.map(async (row) =>
        postResource(row, await this.#rendered(row.body, 'posts'), display, row.mod_comment === null ? null : await this.#rendered(row.mod_comment, 'posts')),
      ),
    );
  }

  #rendered(text: string, type: Extract<ContentType, 'posts' | 'signatures' | 'private_messages'>): Promise<string> {
    const cache = { posts: this.#bodies, signatures: this.#signatures, private_messages: this.#messages }[type];
    return cache.get(readerKey(text), async () => {
      const [screened, find] = await Promise.all([this.#filtered(text, type), this.#emoji()]);
      return renderBody(screened, find).value;
    });
  }

  /** The text with the replacement rules of its content type applied, filtered once per rule set. */
  #filtered(text: string, type: ContentType): Promise<string> {
    return this.#screened.get(type, text, () => {
      // One check per turn of the event loop, whatever the number of texts waiting.
      const turn = this.#checks.then(async () => {
        // Short checks share a turn; once one has taken 10 ms, the next waits for a new turn.
        if (performance.now() - this.#turnStarted > DISPLAY_CHECKS_PER_TURN_MS) {
          await nextTurn(0);
          this.#turnStarted = performance.now();
        }
        return (await this.#screen.check(text, type)).text;
      });
      this.#checks = turn.then(
        () => undefined,
        () => undefined,
      );
      return turn;
    });
  }
}

/**
 * A rendered text's key in its cache: the text in the reader's language, since
 * a rendering names things in it (a quote's "wrote:", a spoiler's title).
 */
function readerKey(text: string): string {
  return `${currentReader().locale}\n${text}`;
}
