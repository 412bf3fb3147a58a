import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { describeEachDatabase, type TestApp } from '../helpers/app.ts';
import { signIn, type SignedIn } from '../helpers/auth.ts';
import { makeAlias, makeEmoji } from '../helpers/emoji.ts';
import { dom } from '../helpers/dom.ts';

describeEachDatabase('forum API', (db) => {
  let t: TestApp;
  let admin: SignedIn;
  let moderator: SignedIn;
  let alice: SignedIn;
  let bob: SignedIn;

  before(async () => {
    t = await db.start();
    admin = await signIn(t, 'admin', 'Forum Admin');
    moderator = await signIn(t, 'moderator', 'Forum Moderator');
    alice = await signIn(t, 'user', 'Alice Author');
    bob = await signIn(t, 'user', 'Bob Bystander');
  });
  after(() => t.close());

  type Method = 'GET' | 'POST' | 'PATCH' | 'DELETE';
  const call = (method: Method, url: string, who?: SignedIn, payload?: object) =>
    t.app.inject({ method, url, headers: who?.headers ?? {}, ...(payload ? { payload } : {}) });

  const newForum = async (name = 'General Talk') => (await call('POST', '/api/forums', admin, { name, description: 'Anything goes' })).json().data;
  const newTopic = async (forumId: number, title = 'Hello world', body = 'First!', who = alice) =>
    call('POST', '/api/topics', who, { forum_id: forumId, title, body });
  const rule = (pattern: string, filterType: 'block' | 'moderate' | 'replace', appliesTo: string[], replacement?: string) =>
    t.services.wordFilters.create(
      { pattern, pattern_type: 'exact', filter_type: filterType, applies_to: appliesTo as never, ...(replacement ? { replacement } : {}) },
      admin.user.id,
    );

  describe('forums', () => {
    it('admins create forums with their semantic URL (201)', async () => {
      const response = await call('POST', '/api/forums', admin, { name: 'Off Topic', description: 'Chat', display_order: 3 });
      assert.equal(response.statusCode, 201);
      const forum = response.json().data;
      assert.equal(forum.url, `/forum/off-topic.${forum.id}/`);
      assert.deepEqual(
        {
          name: forum.name,
          description: forum.description,
          display_order: forum.display_order,
          topics_count: forum.topics_count,
          posts_count: forum.posts_count,
        },
        { name: 'Off Topic', description: 'Chat', display_order: 3, topics_count: 0, posts_count: 0 },
      );
    });

    it('are managed by admins only (401 guest, 403 member and moderator)', async () => {
      assert.equal((await call('POST', '/api/forums', undefined, { name: 'x' })).statusCode, 401);
      assert.equal((await call('POST', '/api/forums', alice, { name: 'x' })).statusCode, 403);
      assert.equal((await call('POST', '/api/forums', moderator, { name: 'x' })).statusCode, 403);
    });

    it('validate name and display order (422)', async () => {
      const response = await call('POST', '/api/forums', admin, { name: '  ', display_order: -1 });
      assert.equal(response.statusCode, 422);
      assert.deepEqual(response.json().errors, {
        name: ['The name field is required.'],
        display_order: ['The display order field must be at least 0.'],
      });
    });

    it('list by display order with pagination', async () => {
      const late = (await call('POST', '/api/forums', admin, { name: 'Zeta Late', display_order: 99 })).json().data;
      const early = (await call('POST', '/api/forums', admin, { name: 'Alpha Early', display_order: 0 })).json().data;
      const list = (await call('GET', '/api/forums?per_page=100')).json();
      const ids = list.data.map((f: { id: number }) => f.id);
      assert.ok(ids.indexOf(early.id) < ids.indexOf(late.id));
      assert.equal(list.meta.per_page, 100);
      assert.ok(list.links.first.startsWith('http'));
    });

    it('rename (the URL follows), and delete only when empty (409 otherwise)', async () => {
      const forum = await newForum('Rename Me');
      const renamed = (await call('PATCH', `/api/forums/${forum.id}`, admin, { name: 'Renamed Forum' })).json().data;
      assert.equal(renamed.url, `/forum/renamed-forum.${forum.id}/`);
      await newTopic(forum.id);
      const refused = await call('DELETE', `/api/forums/${forum.id}`, admin);
      assert.equal(refused.statusCode, 409);
      assert.equal(refused.json().error.code, 'CONFLICT');
      const empty = await newForum('Empty One');
      assert.equal((await call('DELETE', `/api/forums/${empty.id}`, admin)).statusCode, 204);
      assert.equal((await call('GET', `/api/forums/${empty.id}`)).statusCode, 404);
    });
  });

  describe('topics and posts', () => {
    it('any active user starts a topic; its body is the first post; counters follow', async () => {
      const forum = await newForum('Counting');
      const response = await newTopic(forum.id, 'Hello, World!', 'My <b>first</b> post :)');
      assert.equal(response.statusCode, 201);
      const topic = response.json().data;
      assert.equal(topic.url, `/topic/hello-world.${topic.id}/`);
      assert.equal(topic.status, 'published');
      assert.equal(topic.posts_count, 1);
      assert.deepEqual(topic.author, { id: alice.user.id, name: 'Alice Author', url: `/profile/alice-author.${alice.user.id}/` });

      const posts = (await call('GET', `/api/topics/${topic.id}/posts`)).json();
      assert.equal(posts.meta.total, 1);
      assert.equal(posts.data[0].body, 'My <b>first</b> post :)');
      assert.equal(posts.data[0].body_html, '<p>My &lt;b&gt;first&lt;/b&gt; post :)</p>');
      assert.equal(posts.data[0].url, `/topic/hello-world.${topic.id}/?post=${posts.data[0].id}#post-${posts.data[0].id}`);

      const reply = await call('POST', `/api/topics/${topic.id}/posts`, bob, { body: 'Welcome!\n\nSee https://example.org/a?b=1&c=2.' });
      assert.equal(reply.statusCode, 201);
      assert.equal(
        reply.json().data.body_html,
        '<p>Welcome!</p><p>See <a href="https://example.org/a?b=1&amp;c=2" rel="nofollow ugc noopener">https://example.org/a?b=1&amp;c=2</a>.</p>',
      );
      assert.equal((await call('GET', `/api/topics/${topic.id}`)).json().data.posts_count, 2);
      const counted = (await call('GET', `/api/forums/${forum.id}`)).json().data;
      assert.equal(counted.topics_count, 1);
      assert.equal(counted.posts_count, 2);
    });

    it('refuses guests (401), an unknown forum and blank text (422 on each field)', async () => {
      assert.equal((await call('POST', '/api/topics', undefined, { forum_id: 1, title: 'x', body: 'y' })).statusCode, 401);
      const response = await call('POST', '/api/topics', alice, { forum_id: 999999, title: ' ', body: '' });
      assert.equal(response.statusCode, 422);
      assert.deepEqual(Object.keys(response.json().errors).sort(), ['body', 'title']);
      const unknownForum = await call('POST', '/api/topics', alice, { forum_id: 999999, title: 'Fine', body: 'Fine' });
      assert.deepEqual(unknownForum.json().errors, { forum_id: ['The selected forum id is invalid.'] });
    });

    it('lets the author or a moderator edit, nobody else (403); a rename moves the URL', async () => {
      const forum = await newForum('Editing');
      const topic = (await newTopic(forum.id, 'Original Title', 'Original body')).json().data;
      const firstPost = (await call('GET', `/api/topics/${topic.id}/posts`)).json().data[0];

      assert.equal((await call('PATCH', `/api/posts/${firstPost.id}`, bob, { body: 'hijacked' })).statusCode, 403);
      assert.equal((await call('PATCH', `/api/topics/${topic.id}`, bob, { title: 'hijacked' })).statusCode, 403);
      assert.equal((await call('PATCH', `/api/posts/${firstPost.id}`, alice, { body: 'Edited by me' })).json().data.body, 'Edited by me');
      assert.equal((await call('PATCH', `/api/posts/${firstPost.id}`, moderator, { body: 'Edited by a moderator' })).statusCode, 200);
      const renamed = (await call('PATCH', `/api/topics/${topic.id}`, alice, { title: 'Better Title' })).json().data;
      assert.equal(renamed.url, `/topic/better-title.${topic.id}/`);
    });

    it('deletes replies (author), not the first post (422); topics by moderators only', async () => {
      const forum = await newForum('Deleting');
      const topic = (await newTopic(forum.id)).json().data;
      const reply = (await call('POST', `/api/topics/${topic.id}/posts`, bob, { body: 'to be removed' })).json().data;
      const first = (await call('GET', `/api/topics/${topic.id}/posts`)).json().data[0];
      assert.equal((await call('DELETE', `/api/posts/${first.id}`, alice)).statusCode, 422);
      assert.equal((await call('DELETE', `/api/posts/${reply.id}`, alice)).statusCode, 403);
      assert.equal((await call('DELETE', `/api/posts/${reply.id}`, bob)).statusCode, 204);
      assert.equal((await call('GET', `/api/topics/${topic.id}`)).json().data.posts_count, 1);
      assert.equal((await call('DELETE', `/api/topics/${topic.id}`, alice)).statusCode, 403);
      assert.equal((await call('DELETE', `/api/topics/${topic.id}`, moderator)).statusCode, 204);
      const after = (await call('GET', `/api/forums/${forum.id}`)).json().data;
      assert.deepEqual([after.topics_count, after.posts_count], [0, 0]);
    });

    it('paginates posts oldest first', async () => {
      const forum = await newForum('Paging');
      const topic = (await newTopic(forum.id, 'Long thread', 'post 0')).json().data;
      for (let i = 1; i <= 4; i++) await call('POST', `/api/topics/${topic.id}/posts`, bob, { body: `post ${i}` });
      const page = (await call('GET', `/api/topics/${topic.id}/posts?per_page=2&page=2`)).json();
      assert.deepEqual(
        page.data.map((p: { body: string }) => p.body),
        ['post 2', 'post 3'],
      );
      assert.deepEqual(page.meta, { current_page: 2, per_page: 2, total: 5, last_page: 3, from: 3, to: 4 });
    });
  });

  describe('word filters on what users write', () => {
    it('block: 422 on the field and nothing is stored', async () => {
      await rule('forbiddenword', 'block', ['posts']);
      await rule('badtitle', 'block', ['topics']);
      const forum = await newForum('Blocking');
      const topic = (await newTopic(forum.id)).json().data;
      const blocked = await call('POST', `/api/topics/${topic.id}/posts`, bob, { body: 'this has ForbiddenWord in it' });
      assert.equal(blocked.statusCode, 422);
      assert.ok(blocked.json().errors.body);
      assert.equal((await call('GET', `/api/topics/${topic.id}/posts`)).json().meta.total, 1);
      const badTitle = await newTopic(forum.id, 'A badtitle here', 'fine body');
      assert.ok(badTitle.json().errors.title);
      assert.equal((await call('GET', `/api/forums/${forum.id}/topics`)).json().meta.total, 1);
    });

    it('moderate: stored as pending, seen by its author and moderators only, until approved', async () => {
      await rule('checkme', 'moderate', ['posts']);
      const forum = await newForum('Moderation');
      const topic = (await newTopic(forum.id)).json().data;
      const held = await call('POST', `/api/topics/${topic.id}/posts`, bob, { body: 'please checkme' });
      assert.equal(held.statusCode, 201);
      const post = held.json().data;
      assert.equal(post.status, 'pending');

      const totalFor = async (who?: SignedIn) => (await call('GET', `/api/topics/${topic.id}/posts`, who)).json().meta.total;
      assert.equal(await totalFor(), 1, 'guests do not see it');
      assert.equal(await totalFor(alice), 1, 'other members do not see it');
      assert.equal(await totalFor(bob), 2, 'its author does');
      assert.equal(await totalFor(moderator), 2, 'moderators do');
      assert.equal((await call('GET', `/api/posts/${post.id}`)).statusCode, 404);
      assert.equal((await call('GET', `/api/topics/${topic.id}`)).json().data.posts_count, 1, 'not counted yet');

      assert.equal((await call('POST', `/api/posts/${post.id}/approve`, bob)).statusCode, 403);
      const approved = await call('POST', `/api/posts/${post.id}/approve`, moderator);
      assert.equal(approved.json().data.status, 'published');
      assert.equal(await totalFor(), 2);
      assert.equal((await call('GET', `/api/topics/${topic.id}`)).json().data.posts_count, 2);
    });

    it('moderate on a new topic holds the whole topic until its first post is approved', async () => {
      await rule('suspicious', 'moderate', ['topics']);
      const forum = await newForum('Held Topics');
      const topic = (await newTopic(forum.id, 'Something suspicious', 'body')).json().data;
      assert.equal(topic.status, 'pending');
      assert.equal((await call('GET', `/api/topics/${topic.id}`)).statusCode, 404);
      assert.equal((await call('GET', `/api/forums/${forum.id}/topics`)).json().meta.total, 0);
      assert.equal((await call('GET', `/api/forums/${forum.id}/topics`, alice)).json().meta.total, 1);
      const first = (await call('GET', `/api/topics/${topic.id}/posts`, moderator)).json().data[0];
      await call('POST', `/api/posts/${first.id}/approve`, moderator);
      assert.equal((await call('GET', `/api/topics/${topic.id}`)).json().data.status, 'published');
      assert.equal((await call('GET', `/api/forums/${forum.id}`)).json().data.topics_count, 1);
    });

    it('reject: a held post is deleted and its author told by mail', async () => {
      await rule('rejectable', 'moderate', ['posts']);
      const forum = await newForum('Rejections');
      const topic = (await newTopic(forum.id)).json().data;
      const post = (await call('POST', `/api/topics/${topic.id}/posts`, bob, { body: 'rejectable text' })).json().data;
      assert.equal((await call('POST', `/api/posts/${post.id}/reject`, moderator)).statusCode, 204);
      assert.equal((await call('GET', `/api/posts/${post.id}`, moderator)).statusCode, 404);
      const mail = await t.database.db.selectFrom('outbox').selectAll().where('to_address', '=', bob.user.email).execute();
      assert.ok(mail.some((m) => m.subject.includes('not approved') && m.body.includes('rejectable text')));
    });

    it('replace: applied when displayed, so editing the rule changes every page', async () => {
      const replace = await rule('darn', 'replace', ['posts', 'topics'], 'd**n');
      const forum = await newForum('Replacing');
      const topic = (await newTopic(forum.id, 'Darn title', 'oh darn it')).json().data;
      assert.equal(topic.title, 'Darn title', 'stored as written');
      assert.equal(topic.title_html, 'd**n title');
      assert.equal(topic.url, `/topic/d-n-title.${topic.id}/`);
      const first = (await call('GET', `/api/topics/${topic.id}/posts`)).json().data[0];
      assert.equal(first.body, 'oh darn it');
      assert.equal(first.body_html, '<p>oh d**n it</p>');
      await t.services.wordFilters.update(replace.id, { replacement: 'dang' });
      const again = (await call('GET', `/api/topics/${topic.id}/posts`)).json().data[0];
      assert.equal(again.body_html, '<p>oh dang it</p>');
    });
  });

  describe('emoji in titles and posts', () => {
    it('display as the Unicode character, an <img> for custom images and a sized element for sprites; aliases work too', async () => {
      const wave = await makeEmoji(t, { title: 'Waving hand', emoji_text: '👋', emoji_shortcode: ':wave_forum:' });
      await makeAlias(t, wave, ':hello_forum:');
      await makeEmoji(t, { title: 'Party parrot', emoji_text: null, image_url: '/emojis/custom/parrot.gif', emoji_shortcode: ':parrot_forum:' });
      await makeEmoji(t, {
        title: 'Sprite star',
        emoji_text: null,
        sprite_mode: true,
        sprite_params: { x: 16, y: 32, width: 16, height: 16, sheet: 'sheet.png' },
        emoji_shortcode: ':star_forum:',
      });
      const forum = await newForum('Emoji Talk');
      const topic = (await newTopic(forum.id, 'Hi :wave_forum:', ':hello_forum: :parrot_forum: :star_forum: :unknown_code: <i>')).json().data;
      assert.equal(topic.title_html, 'Hi <span class="emoji" role="img" aria-label="Waving hand" title=":wave_forum:">👋</span>');
      assert.equal(topic.url, `/topic/hi-wave-forum.${topic.id}/`);
      const body = (await call('GET', `/api/topics/${topic.id}/posts`)).json().data[0].body_html;
      const post = dom(body);
      const unicode = post.one('span.emoji');
      assert.deepEqual(unicode.attributes, { class: 'emoji', role: 'img', 'aria-label': 'Waving hand', title: ':hello_forum:' });
      assert.equal(unicode.text, '👋');
      assert.deepEqual(post.one('img.emoji').attributes, {
        class: 'emoji',
        src: '/emojis/custom/parrot.gif',
        alt: ':parrot_forum:',
        title: 'Party parrot',
        loading: 'lazy',
      });
      const sprite = post.one('span.sprite');
      assert.deepEqual(sprite.attributes, {
        class: 'sprite',
        role: 'img',
        'aria-label': 'Sprite star',
        title: ':star_forum:',
        style: "width:16px;height:16px;background-image:url('/emojis/sprites/sheet.png');background-position:-16px -32px",
      });
      assert.equal(sprite.text, '');
      assert.match(post.textContent, /:unknown_code: <i>/, 'unknown codes and markup stay text');
      assert.equal(post.count('i'), 0, 'no <i> element');
    });

    it('follow the catalog: an emoji added later shows in existing posts', async () => {
      const forum = await newForum('Later Emoji');
      const topic = (await newTopic(forum.id, 'Later', 'see :later_forum:')).json().data;
      const before = (await call('GET', `/api/topics/${topic.id}/posts`)).json().data[0].body_html;
      assert.equal(before, '<p>see :later_forum:</p>');
      await makeEmoji(t, { title: 'Later', emoji_text: '⏰', emoji_shortcode: ':later_forum:' });
      const after = (await call('GET', `/api/topics/${topic.id}/posts`)).json().data[0].body_html;
      assert.match(after, /⏰/);
    });
  });
});
