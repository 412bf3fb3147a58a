// A forum holding every kind of content the service stores, made through the
// services the app uses: accounts in each state, tokens and sessions, the
// emoji catalog's three kinds with aliases, word filters of each type, forums
// in categories and a subforum, topics, published and held posts, a watchlist,
// forum moderators, private messages, mail, account keys, a pending e-mail
// change and mass sends (a message, and a mail with its List-Unsubscribe
// headers and the members' unsubscribe keys). Copy and backup tests compare
// databases filled by it.
import type { TestApp } from '../helpers/app.ts';
import { TEST_PASSWORD, createUser } from '../helpers/auth.ts';
import { makeAlias, makeCategory, makeEmoji, uniqueCode } from '../helpers/emoji.ts';
import { asAuthUser, createForum, createRule, createTopic, reply } from '../helpers/forum.ts';

/** Tables the fixture is known to fill (tables of later migrations are copied too, empty or not). */
export const FILLED_TABLES = [
  'users',
  'api_tokens',
  'sessions',
  'emoji_categories',
  'emojis',
  'emoji_aliases',
  'emoji_codes',
  'word_filters',
  'word_filter_content_types',
  'categories',
  'forums',
  'topics',
  'posts',
  'watchlist',
  'outbox',
  'account_keys',
  'email_changes',
  'private_messages',
  'moderation_log',
  'post_revisions',
  'forum_grants',
  'mass_sends',
];

export interface Filled {
  member: { username: string; password: string };
  topicId: number;
  wordFilterId: number;
}

export async function fillWithEveryKindOfContent(t: TestApp): Promise<Filled> {
  const admin = await createUser(t, { role: 'admin' });
  const member = await createUser(t, { name: `Ölaf ${process.pid}`, status: 'active' });
  await createUser(t, { role: 'moderator', status: 'banned' });
  await t.services.accounts.register({ username: `newcomer${process.pid}`, email: `newcomer${process.pid}@example.test`, password: TEST_PASSWORD });
  await t.services.auth.issueToken(member);
  await t.services.auth.startSession(member.id);
  await t.services.accounts.requestEmailChange(asAuthUser(member), TEST_PASSWORD, `olaf.new${process.pid}@example.test`);
  await t.services.accounts.changeSignature(asAuthUser(member), 'Grüße — 🌍');

  const category = await makeCategory(t, { title: 'Faces 😀', display_order: 3 });
  const unicode = await makeEmoji(t, { title: 'Smile', emoji_text: '😀', emoji_category_id: category.id, display_order: 1 });
  await makeEmoji(t, { title: 'Logo', emoji_text: null, image_url: '/uploads/emoji/logo.png', display_order: 2 });
  await makeEmoji(t, {
    title: 'Sprite',
    emoji_text: null,
    sprite_mode: true,
    display_order: 4,
    sprite_params: { x: 16, y: 32, width: 16, height: 16, sheet: 'sheet.png' },
  });
  await makeAlias(t, unicode, uniqueCode('grin'));

  const rule = await createRule(t, `blorp${process.pid}`, 'replace', ['posts', 'topics'], '*****');
  await createRule(t, `zorch${process.pid}`, 'moderate', ['posts']);
  await t.services.wordFilters.create(
    {
      pattern: '/\\bspam\\d+\\b/i',
      pattern_type: 'regex',
      filter_type: 'block',
      applies_to: ['signatures'],
      is_active: false,
      case_sensitive: true,
      severity: 'high',
      notes: 'Notes with "quotes" and \\ backslash',
    },
    admin.id,
  );

  const forum = await createForum(t, 'Allgemein — Общий', 'Über alles');
  await createForum(t, 'Empty forum');
  // A category holding a forum (its foreign key and check constraint come along), and an empty one.
  const section = await t.services.forum.categories.create({ title: 'Kategorie — Раздел', display_order: 2 });
  await t.services.forum.categories.create({ title: 'Empty category', display_order: 0 });
  await t.services.forum.updateForum(forum.id, { category_id: section.id });
  await t.services.forum.createForum({ name: 'Unterforum', parent_id: forum.id });
  const topic = await createTopic(t, member, forum, 'Привет, мир: the first topic', `Hello blorp${process.pid} world`);
  const edited = await reply(t, admin, topic, 'A reply with\nnew lines and <b>markup</b>');
  await t.services.forum.editPost(edited.id, asAuthUser(admin), 'A reply, edited, with\nnew lines and <b>markup</b>');
  await reply(t, member, topic, `This one is held: zorch${process.pid}`);
  await t.services.forum.watch(asAuthUser(member), topic.id);
  await t.services.forum.topicModeration.lock(topic.id, asAuthUser(admin), true);
  await t.services.forum.topicModeration.pin(topic.id, asAuthUser(admin), true);
  await t.services.forum.moderators.replace(forum.id, [member.id]);

  // Private messages: a conversation (reply_to), one opened, one deleted by its sender, the mail setting on.
  await t.services.messages.setMessageMails(asAuthUser(admin), true);
  const question = await t.services.messages.send(asAuthUser(member), admin.username, { subject: 'Frage — вопрос', body: '[b]Hallo[/b] 🌍' });
  await t.services.messages.open(asAuthUser(admin), question.id);
  const answer = await t.services.messages.reply(asAuthUser(admin), question.id, { subject: 'Re: Frage — вопрос', body: 'Antwort' });
  await t.services.messages.delete(asAuthUser(admin), answer.id);

  // Mass sends: messages marked with their send (its foreign key), a mail with header lines and unsubscribe keys.
  await t.services.massSends.create(asAuthUser(admin), { kind: 'message', audience: { kind: 'all' }, subject: 'An alle — всем', body: 'Neuigkeiten' });
  await t.services.massSends.create(asAuthUser(admin), {
    kind: 'mail',
    audience: { kind: 'role', role: 'user' },
    subject: 'Newsletter',
    body: '[url=https://example.org]News[/url]',
  });
  await t.services.massSender.settled();
  return { member: { username: member.username, password: TEST_PASSWORD }, topicId: topic.id, wordFilterId: rule.id };
}
