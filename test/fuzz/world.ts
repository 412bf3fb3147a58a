// The populated forum the fuzzer attacks: a few rows of every kind, callers of
// every role with API tokens and web sessions, and the ids and slugs worth
// aiming at. Everything is made through the services and routes the app uses.
import type { Role } from '../../src/db/schema.ts';
import { SESSION_COOKIE } from '../../src/auth/guard.ts';
import { GUEST_CSRF_COOKIE } from '../../src/auth/csrf.ts';
import type { TestApp } from '../helpers/app.ts';
import { createUser, TEST_PASSWORD } from '../helpers/auth.ts';
import { makeAlias, makeCategory, makeEmoji } from '../helpers/emoji.ts';
import { asAuthUser, createForum, lastMailTo, linkIn } from '../helpers/forum.ts';
import { multipart, png } from '../helpers/images.ts';

/** Who sends a request: how it proves who it is. */
export interface Caller {
  name: string;
  /** The member whose credentials it carries, and how. */
  role?: Role;
  via?: 'token' | 'session';
  headers: Record<string, string>;
  cookies: Record<string, string>;
  /** The token a form or an X-CSRF-Token header must carry, when the caller has one. */
  csrf: string | undefined;
}

interface Member {
  role: Role;
  userId: number;
  username: string;
  token: string;
  session: string;
  csrf: string;
}

/**
 * Rules the fuzzer starts with. The costly regular expressions are the shapes
 * reported to stall the server; the service decides which of them it accepts
 * (a fixed validator refuses them, and then they are simply not there).
 */
const RULES = [
  { pattern: 'darn', pattern_type: 'exact', filter_type: 'replace', replacement: 'd**n', applies_to: ['posts', 'topics', 'signatures'] },
  { pattern: 'sp*m', pattern_type: 'wildcard', filter_type: 'block', applies_to: ['posts', 'topics'] },
  { pattern: 'buy\\s+now\\b', pattern_type: 'regex', filter_type: 'moderate', applies_to: ['posts', 'topics'] },
  { pattern: '(?i)c[a@]sh\\d+', pattern_type: 'regex', filter_type: 'replace', replacement: '[cash]', applies_to: ['posts', 'signatures', 'usernames'] },
  { pattern: '\\w{1,1000}\\w{1,1000}!', pattern_type: 'regex', filter_type: 'block', applies_to: ['posts', 'topics', 'signatures'] },
  { pattern: '(a|aa)+(b|bb)+(c{1,100}){1,100}x', pattern_type: 'regex', filter_type: 'moderate', applies_to: ['posts', 'topics'] },
  { pattern: '[\\s\\S]{500,1000}zz', pattern_type: 'regex', filter_type: 'replace', replacement: '-', applies_to: ['posts'] },
] as const;

export class World {
  readonly t: TestApp;
  readonly members = new Map<Role, Member>();
  /** Ids that exist, per kind (the fuzzer aims at them as well as at nonsense). */
  readonly ids: Record<string, number[]> = {};
  /** Semantic path segments of existing pages (`general-talk.1`) per kind. */
  readonly segments: Record<string, string[]> = {};
  /** Secret keys of account links (activation, password reset, e-mail change). */
  readonly keys: string[] = [];
  readonly uploads: string[] = [];
  /** The regex rules the service accepted. */
  readonly acceptedRules: string[] = [];
  readonly guestCsrf = 'fuzzGuestCsrfToken_0123456789';

  constructor(t: TestApp) {
    this.t = t;
  }

  static async build(t: TestApp): Promise<World> {
    const world = new World(t);
    await world.#seed();
    world.#buildCallers();
    return world;
  }

  /** Every kind of caller; the same objects for the whole run (their credentials are renewed in place). */
  callers(): Caller[] {
    return this.#callers;
  }

  #callers: Caller[] = [];

  #buildCallers(): void {
    this.#callers = [
      { name: 'guest', headers: {}, cookies: {}, csrf: undefined },
      { name: 'guest with form cookie', headers: {}, cookies: { [GUEST_CSRF_COOKIE]: this.guestCsrf }, csrf: this.guestCsrf },
      { name: 'bad token', headers: { authorization: 'Bearer not-a-real-token-0000000000' }, cookies: {}, csrf: undefined },
    ];
    for (const role of this.members.keys()) {
      this.#callers.push({ name: `${role} token`, role, via: 'token', headers: {}, cookies: {}, csrf: undefined });
      this.#callers.push({ name: `${role} session`, role, via: 'session', headers: {}, cookies: {}, csrf: undefined });
    }
    this.#callers.push({ name: 'admin session with a wrong CSRF token', role: 'admin', via: 'session', headers: {}, cookies: {}, csrf: 'x'.repeat(32) });
    this.#renewCallers();
  }

  #renewCallers(): void {
    for (const caller of this.#callers) {
      const member = caller.role === undefined ? undefined : this.members.get(caller.role);
      if (member === undefined) continue;
      if (caller.via === 'token') caller.headers = { authorization: `Bearer ${member.token}` };
      else {
        caller.cookies = { [SESSION_COOKIE]: member.session };
        if (caller.name.endsWith(' session')) caller.csrf = member.csrf;
      }
    }
  }

  /**
   * Gives every role a working token and session again when a fuzzed request
   * took them away (a ban, a role change, a deleted account, a logout).
   * Called after every successful write; cheap when nothing changed.
   */
  async restoreMembers(): Promise<void> {
    let renewed = false;
    for (const [role, member] of this.members) {
      const byToken = await this.t.services.auth.authenticateToken(member.token);
      const bySession = await this.t.services.auth.authenticateSession(member.session);
      if (byToken?.user.role === role && bySession?.user.role === role && byToken.user.id === member.userId) continue;
      this.members.set(role, await this.#member(role));
      renewed = true;
    }
    if (renewed) this.#renewCallers();
  }

  async #member(role: Role): Promise<Member> {
    let row: Awaited<ReturnType<typeof createUser>>;
    try {
      row = await createUser(this.t, { role });
    } catch {
      // A word-filter rule the fuzzer created refuses the user name: rules go, the member comes back.
      for (const rule of await this.t.database.db.selectFrom('word_filters').select('id').execute()) await this.t.services.wordFilters.delete(rule.id);
      row = await createUser(this.t, { role });
    }
    const issued = await this.t.services.auth.issueToken(row);
    // The first use of a token records it (hourly); done here so that a refused request never does it.
    await this.t.services.auth.authenticateToken(issued.token);
    const session = await this.t.services.auth.startSession(row.id);
    (this.ids['users'] ??= []).push(row.id);
    (this.segments['profile'] ??= []).push(`${row.username.toLowerCase()}.${row.id}`);
    return { role, userId: row.id, username: row.username, token: issued.token, session: session.cookieValue, csrf: session.csrfToken };
  }

  #add(kind: string, id: number): void {
    (this.ids[kind] ??= []).push(id);
  }

  async #seed(): Promise<void> {
    const { t } = this;
    for (const role of ['user', 'moderator', 'admin'] as const) this.members.set(role, await this.#member(role));
    const author = await createUser(t, { name: 'Fuzzy Author' });
    this.#add('users', author.id);
    this.#add('users', (await createUser(t, { status: 'pending' })).id);
    this.#add('users', (await createUser(t, { status: 'banned' })).id);
    const moderator = { id: this.members.get('moderator')!.userId, name: 'mod', email: 'mod@example.test', role: 'moderator' as const };
    const admin = this.members.get('admin')!;

    for (const rule of RULES) {
      try {
        const record = await t.services.wordFilters.create({ ...rule, applies_to: [...rule.applies_to] }, admin.userId);
        this.#add('word-filters', record.id);
        if (rule.pattern_type === 'regex') this.acceptedRules.push(rule.pattern);
      } catch {
        // Refused by the rule validator: the fuzzer runs without it.
      }
    }

    const forums = [await createForum(t, 'General Talk', 'Anything goes'), await createForum(t, 'Ünïcödé Вопросы', ''), await createForum(t, 'Empty')];
    for (const forum of forums) this.#add('forums', forum.id);
    this.segments['forum'] = forums.map((forum) => `${slugOf(forum.name)}.${forum.id}`);
    // Forum categories (the index's headings): one holding a forum (so its delete is refused), one empty.
    const sections = [
      await t.services.forum.categories.create({ title: 'Fuzz section', display_order: 0 }),
      await t.services.forum.categories.create({ title: 'Пустой раздел', display_order: 1 }),
    ];
    for (const section of sections) this.#add('forum-categories', section.id);
    await t.services.forum.updateForum(forums[0]!.id, { category_id: sections[0]!.id });
    // Groups of each type (docs/access.md, "Groups"): the author leads them, the fuzzing user is in the open one and asks to join the closed one.
    const groupAdmin = { id: admin.userId, role: 'admin' as const };
    const fuzzUser = { id: this.members.get('user')!.userId, role: 'user' as const };
    this.segments['group'] = [];
    for (const [name, type] of [
      ['Fuzz openers', 'open'],
      ['Закрытая группа', 'closed'],
      ['Fuzz hidden', 'hidden'],
    ] as const) {
      const group = await t.services.groups.create({ name, type, description: 'A group to fuzz.' });
      await t.services.groups.setMember(group.id, groupAdmin, author.id, 'leader');
      if (type === 'open') await t.services.groups.join(group.id, fuzzUser);
      if (type === 'closed') await t.services.groups.join(group.id, fuzzUser);
      this.#add('groups', group.id);
      this.segments['group'].push(`${slugOf(name)}.${group.id}`);
    }
    const writer = asAuthUser(author);
    const topics = [
      await t.services.forum.createTopic(writer, { forum_id: forums[0]!.id, title: 'Hello world', body: 'The first post, darn it.' }),
      await t.services.forum.createTopic(writer, { forum_id: forums[1]!.id, title: 'Привет мир', body: 'Второй пост.' }),
      await t.services.forum.createTopic(writer, { forum_id: forums[0]!.id, title: 'Buy now please', body: 'buy  now and held for moderation' }),
    ];
    this.segments['topic'] = [];
    for (const topic of topics) {
      this.#add('topics', topic.id);
      this.segments['topic'].push(`${slugOf(topic.title)}.${topic.id}`);
    }
    for (let i = 0; i < 4; i += 1) this.#add('posts', (await t.services.forum.reply(topics[0]!.id, writer, `Reply number ${i}, cash${i}`)).id);
    this.#add('posts', (await t.services.forum.reply(topics[0]!.id, writer, 'A reply to buy now, held')).id);
    await t.services.forum.watch(moderator, topics[0]!.id);

    const categories = [await makeCategory(t, { title: 'Smileys' }), await makeCategory(t, { title: 'Other', display_order: 2 })];
    for (const category of categories) this.#add('categories', category.id);
    const emojis = [
      await makeEmoji(t, { title: 'Smile', emoji_shortcode: ':fuzz_smile:', emoji_category_id: categories[0]!.id }),
      await makeEmoji(t, { title: 'Wink', emoji_text: '😉', emoji_shortcode: ':fuzz_wink:' }),
    ];
    const image = await this.#upload('/api/emoji/images', png(16, 16));
    const sheet = await this.#upload('/api/emoji/sprite-sheets', png(64, 32));
    if (image !== undefined) emojis.push(await makeEmoji(t, { title: 'Picture', emoji_text: null, image_url: image, emoji_shortcode: ':fuzz_picture:' }));
    if (sheet !== undefined) {
      emojis.push(
        await makeEmoji(t, {
          title: 'Sprite',
          emoji_text: null,
          emoji_shortcode: ':fuzz_sprite:',
          sprite_mode: true,
          sprite_params: { x: 0, y: 0, width: 16, height: 16, sheet },
        }),
      );
    }
    for (const emoji of emojis) this.#add('emojis', emoji.id);
    this.#add('aliases', (await makeAlias(t, emojis[0]!, ':fuzz_happy:')).id);
    this.#add('aliases', (await makeAlias(t, emojis[1]!, ':fuzz_wink_alias:')).id);

    // Account links: an activation key, a password-reset key, an e-mail change key.
    await t.services.accounts.register({ username: 'fuzz_newcomer', email: 'newcomer@example.test', password: TEST_PASSWORD });
    const activation = linkIn(await lastMailTo(t, 'newcomer@example.test'), '/activate/');
    this.segments['activation'] = [activation.replace(/^\/activate\//, '').replace(/\/$/, '')];
    await t.services.accounts.requestPasswordReset(author.email);
    const reset = linkIn(await lastMailTo(t, author.email), '/password-recovery/');
    this.keys.push(reset.replace(/^\/password-recovery\//, '').replace(/\/$/, ''));
    for (const mail of await t.database.db.selectFrom('outbox').select('id').execute()) this.#add('outbox', mail.id);
  }

  async #upload(path: string, bytes: Buffer): Promise<string | undefined> {
    const admin = this.members.get('admin')!;
    const body = await multipart({ file: { bytes, name: 'fuzz.png', type: 'image/png' } });
    const response = await this.t.app.inject({
      method: 'POST',
      url: path,
      headers: { ...body.headers, authorization: `Bearer ${admin.token}` },
      payload: body.payload,
    });
    if (response.statusCode !== 201 && response.statusCode !== 200) return undefined;
    const url = (JSON.parse(response.body) as { data?: { url?: string; name?: string } }).data;
    if (url?.name !== undefined) this.uploads.push(url.name);
    return url?.url;
  }
}

/** A plausible slug: the app redirects any slug to the canonical one, so exactness does not matter. */
function slugOf(text: string): string {
  return (
    text
      .toLowerCase()
      .replace(/[^\p{L}\p{N}]+/gu, '-')
      .replace(/^-|-$/g, '') || 'x'
  );
}
