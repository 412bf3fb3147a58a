// What a published post tells whom (docs/notifications.md): the watchers of
// its topic get a reply, the authors it quotes a quote, the members it
// @mentions a mention; each member one notification per post, the strongest
// (a quote, then a mention, then a reply). And what a moderator's action on a
// post tells its author. Only members who may read the post's forum are told
// (each asked as the rule would ask them on their own request), never its
// author, each by the ways they chose (the site, mail). The post is written
// first: telling is what follows it.
import type { AuthUser } from '../auth/service.ts';
import { type Clock, isoNow } from '../clock.ts';
import type { NotificationKind } from '../db/schema.ts';
import { asReader, memberReader } from '../i18n/context.ts';
import { t } from '../i18n/messages.ts';
import type { Mailer, MailMessage } from '../mail/mailer.ts';
import type { NewNotification, NotificationStore } from '../notifications/store.ts';
import { usernameKey } from '../users/repository.ts';
import { notificationSettingsPath, watchlistPath } from '../urls/paths.ts';
import type { AccessRepository } from './access-repository.ts';
import type { ForumAccess } from './forum-access.ts';
import { newReplyMail } from './mails.ts';
import { referencesIn } from './mentions.ts';
import type { ForumRepository, TopicWithAuthor, Watcher } from './repository.ts';
import { postPathOn } from './resource.ts';
import type { TopicNaming } from './mails.ts';

/** What a moderator may do to a post that its author is told of. */
export type PostModeration = 'approve' | 'reject' | 'hide_post' | 'restore_post' | 'comment_post';

/** The kinds a post gives, strongest first: a member quoted and mentioned in one reply to a topic they watch is told once, of the quote. */
const STRENGTH: readonly NotificationKind[] = ['quote', 'mention', 'reply'];

export class PostNotifications {
  readonly #repository: ForumRepository;
  readonly #store: NotificationStore;
  readonly #mailer: Mailer;
  readonly #naming: TopicNaming;
  readonly #access: ForumAccess;
  readonly #accessRepository: AccessRepository;
  readonly #clock: Clock;

  constructor(
    repository: ForumRepository,
    store: NotificationStore,
    mailer: Mailer,
    naming: TopicNaming,
    access: { rules: ForumAccess; repository: AccessRepository },
    clock: Clock,
  ) {
    this.#repository = repository;
    this.#store = store;
    this.#mailer = mailer;
    this.#naming = naming;
    this.#access = access.rules;
    this.#accessRepository = access.repository;
    this.#clock = clock;
  }

  /**
   * A post was published (written, or approved by a moderator), or edited
   * (`edited`: the text it replaced; only those the edit newly quotes or
   * mentions are told, by the centre and by mail alike). Nothing is
   * told of a post in a topic that waits for moderation or is hidden: those
   * told could not open it.
   */
  async published(topic: TopicWithAuthor, authorId: number, post: { id: number; body: string }, edited?: { before: string }): Promise<void> {
    if (topic.status !== 'published' || topic.hidden_at !== null) return;
    const references = referencesIn(post.body);
    // An edit tells only the names its text adds: those named before were told of the post then.
    const before = edited === undefined ? null : referencesIn(edited.before);
    const added = (names: readonly string[], earlier: readonly string[] | undefined) => {
      const known = new Set((earlier ?? []).map(usernameKey));
      return names.map(usernameKey).filter((key) => !known.has(key));
    };
    const [watchers, mentioned, quoted] = await Promise.all([
      edited === undefined ? this.#repository.watchers(topic.id, authorId) : [],
      this.#repository.activeMembersNamed(added(references.mentions, before?.mentions)),
      this.#repository.activeMembersNamed(added(references.quoted, before?.quoted)),
    ]);
    const strongest = new Map<number, { kind: NotificationKind; member: Watcher }>();
    const offer = (kind: NotificationKind, members: readonly Watcher[]) => {
      for (const member of members) {
        if (member.id === authorId) continue;
        const held = strongest.get(member.id);
        if (held === undefined || STRENGTH.indexOf(kind) < STRENGTH.indexOf(held.kind)) strongest.set(member.id, { kind, member });
      }
    };
    offer('reply', watchers);
    offer('mention', mentioned);
    offer('quote', quoted);
    if (strongest.size === 0) return;

    const readers = new Set(
      (
        await this.#readersOf(
          topic.forum_id,
          [...strongest.values()].map((entry) => entry.member),
        )
      ).map((reader) => reader.id),
    );
    const told = [...strongest.values()].filter((entry) => readers.has(entry.member.id));
    const heading = await this.#naming.heading(topic);
    const link = this.#mailer.link(postPathOn(heading.path, post.id));
    const at = isoNow(this.#clock);
    const mails: Array<() => Promise<void>> = [];
    const rows: NewNotification[] = [];
    for (const kind of STRENGTH) {
      const members = told.filter((entry) => entry.kind === kind).map((entry) => entry.member);
      if (members.length === 0) continue;
      const delivery = await this.#store.deliveryOf(
        kind,
        members.map((member) => member.id),
      );
      for (const member of members) {
        if (delivery.site.has(member.id)) rows.push({ userId: member.id, kind, actorId: authorId, topicId: topic.id, postId: post.id });
        if (delivery.email.has(member.id))
          mails.push(() => this.#mailer.send(asReader(memberReader(member), () => this.#postMail(kind, member.email, heading, link))));
      }
    }
    await this.#repository.transaction((trx) => this.#store.add(trx, rows, at));
    for (const send of mails) await send();
  }

  /**
   * A moderator acted on a member's post (approved, rejected, hid or restored
   * it, commented on it): its author is told, unless they did it themselves.
   * A rejected post is gone (null), and with an opening post its topic.
   */
  async moderated(post: { id: number | null; topic_id: number | null; author_id: number | null }, moderator: AuthUser, action: PostModeration): Promise<void> {
    const authorId = post.author_id;
    if (authorId === null || authorId === moderator.id) return;
    const delivery = await this.#store.deliveryOf('moderation', [authorId]);
    if (delivery.site.has(authorId)) {
      await this.#repository.transaction((trx) =>
        this.#store.add(
          trx,
          [{ userId: authorId, kind: 'moderation', actorId: moderator.id, topicId: post.topic_id, postId: post.id, action }],
          isoNow(this.#clock),
        ),
      );
    }
    // A rejected post's author is mailed its text whatever they chose (moderation.ts): no second mail.
    if (!delivery.email.has(authorId) || action === 'reject') return;
    const [author] = await this.#repository.activeMembersById([authorId]);
    const topic = post.topic_id === null ? undefined : await this.#repository.findTopic(post.topic_id);
    if (author === undefined || topic === undefined) return;
    const heading = await this.#naming.heading(topic);
    const link = this.#mailer.link(post.id === null ? heading.path : postPathOn(heading.path, post.id));
    await this.#mailer.send(
      asReader(memberReader(author), () => ({
        to: author.email,
        subject: t('mail.notice.moderation_subject', { title: heading.title }),
        text: t('mail.notice.moderation_text', {
          title: heading.title,
          action: t(`notifications.action.${action}`),
          link,
          settings: this.#mailer.link(notificationSettingsPath()),
        }),
      })),
    );
  }

  /** A member saw a topic's posts up to this one: what told them of those posts is read. Answers how many were unread. */
  seen(userId: number, topicId: number, upToPostId: number): Promise<number> {
    return this.#store.markReadAbout(userId, { topicId, upToPostId }, isoNow(this.#clock));
  }

  #postMail(kind: NotificationKind, to: string, heading: { title: string }, link: string): MailMessage {
    if (kind === 'reply') return newReplyMail(to, heading, link, this.#mailer.link(watchlistPath()));
    return {
      to,
      subject: t(kind === 'quote' ? 'mail.notice.quote_subject' : 'mail.notice.mention_subject', { title: heading.title }),
      text: t(kind === 'quote' ? 'mail.notice.quote_text' : 'mail.notice.mention_text', {
        title: heading.title,
        link,
        settings: this.#mailer.link(notificationSettingsPath()),
      }),
    };
  }

  /** The members who may read this forum, by the one rule (permissions.ts) with their own groups and moderated forums. */
  async #readersOf(forumId: number, members: readonly Watcher[]): Promise<Watcher[]> {
    const readers = await this.#accessRepository.readers(members);
    const allowed = await Promise.all(readers.map(async (reader) => (await this.#access.of(reader)).may(forumId, 'read')));
    return members.filter((_, index) => allowed[index]);
  }
}
