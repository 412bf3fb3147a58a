// Forum fixtures made through the services the app uses, members logged in
// through the real /login/ page, and the outbox read the way an admin would.
import type { AuthUser } from '../../src/auth/service.ts';
import type { ForumRow, TopicWithAuthor } from '../../src/forum/repository.ts';
import type { UserRow } from '../../src/users/repository.ts';
import type { WordFilterRecord } from '../../src/word-filters/repository.ts';
import type { ContentType, FilterType } from '../../src/word-filters/rules.ts';
import { dom, readerText } from './dom.ts';
import type { TestApp } from './app.ts';
import { TEST_PASSWORD, createUser } from './auth.ts';
import { Browser } from './browser.ts';

export function asAuthUser(row: UserRow): AuthUser {
  return { id: row.id, name: row.username, email: row.email, role: row.role };
}

export function createForum(t: TestApp, name = 'General Talk', description = ''): Promise<ForumRow> {
  return t.services.forum.createForum({ name, description });
}

export function createTopic(t: TestApp, author: UserRow, forum: ForumRow, title: string, body = 'The opening post.'): Promise<TopicWithAuthor> {
  return t.services.forum.createTopic(asAuthUser(author), { forum_id: forum.id, title, body });
}

export async function reply(t: TestApp, author: UserRow, topic: { id: number }, body: string) {
  return t.services.forum.reply(topic.id, asAuthUser(author), body);
}

/** A word-filter rule; patterns should be unique per test, rules apply app-wide. */
export function createRule(t: TestApp, pattern: string, filterType: FilterType, appliesTo: ContentType[], replacement?: string): Promise<WordFilterRecord> {
  return t.services.wordFilters.create(
    { pattern, pattern_type: 'exact', filter_type: filterType, applies_to: appliesTo, ...(replacement === undefined ? {} : { replacement }) },
    null,
  );
}

export interface Member {
  user: UserRow;
  browser: Browser;
}

/** A new active member, logged in through /login/ in a fresh cookie jar. */
export async function loggedIn(t: TestApp, options: Parameters<typeof createUser>[1] = {}): Promise<Member> {
  const user = await createUser(t, options);
  const browser = new Browser(t);
  const response = await browser.logIn(user.username, options.password ?? TEST_PASSWORD);
  if (response.status !== 303) throw new Error(`login of ${user.username} failed with ${response.status}`);
  return { user, browser };
}

/** A member who uses both the pages and the API. */
export interface MemberWithToken extends Member {
  headers: Record<string, string>;
}

/**
 * A new member logged in through /login/, with an API token already used
 * once: a token's first use records it, so a later refusal can be shown to
 * change no row.
 */
export async function loggedInWithToken(t: TestApp, options: Parameters<typeof createUser>[1] = {}): Promise<MemberWithToken> {
  const member = await loggedIn(t, options);
  const headers = { authorization: `Bearer ${(await t.services.auth.issueToken(member.user)).token}` };
  const used = await t.app.inject({ method: 'GET', url: '/api/user', headers });
  if (used.statusCode !== 200) throw new Error(`the token of ${member.user.username} answered ${used.statusCode}`);
  return { ...member, headers };
}

export interface Mail {
  to_address: string;
  subject: string;
  body: string;
}

/** Mails to one address, oldest first. */
export async function mailsTo(t: TestApp, address: string): Promise<Mail[]> {
  return t.database.db.selectFrom('outbox').select(['to_address', 'subject', 'body']).where('to_address', '=', address).orderBy('id').execute();
}

export async function lastMailTo(t: TestApp, address: string): Promise<Mail> {
  const mails = await mailsTo(t, address);
  const mail = mails.at(-1);
  if (mail === undefined) throw new Error(`no mail to ${address}`);
  return mail;
}

/** The path of the first link in a mail whose path starts with `prefix`. */
export function linkIn(mail: Mail, prefix: string): string {
  for (const match of mail.body.matchAll(/https?:\/\/\S+/g)) {
    const url = new URL(match[0]);
    if (url.pathname.startsWith(prefix)) return url.pathname + url.search;
  }
  throw new Error(`no ${prefix} link in mail "${mail.subject}":\n${mail.body}`);
}

/** The page's <main> with tags removed and white space collapsed: what a reader sees. */
export function mainText(body: string): string {
  const page = dom(body);
  return readerText(page.find('main#main') ?? page.root);
}

/** The canonical URL a page declares. */
export function canonicalOf(body: string): string | undefined {
  return dom(body).find('link[rel="canonical"]')?.getAttribute('href');
}
