// The JSON shape of a private message, built in one function. `subject` and
// `body_html` are as displayed (the `private_messages` replacement rules
// applied, the text rendered like a post); `body` is the text as written, for
// quoting in a reply. `sender`/`recipient` are null once the account is
// deleted; `read_at` is when the recipient first opened it, null while unread.
import { Type, type Static } from 'typebox';
import { AuthorResource, authorResource } from '../forum/resource.ts';
import type { ForumPresenter } from '../forum/presenter.ts';
import { Nullable } from '../http/schemas.ts';
import { SecondsTimestamp, isoSeconds } from '../http/timestamps.ts';
import { messagePath } from '../urls/paths.ts';
import type { MessageRow } from './repository.ts';

export const MessageResource = Type.Object({
  id: Type.Integer(),
  subject: Type.String({ description: 'As displayed' }),
  body: Type.String({ description: 'As written (BBCode)' }),
  body_html: Type.String({ description: 'As displayed' }),
  sender: Nullable(AuthorResource),
  recipient: Nullable(AuthorResource),
  reply_to_id: Nullable(Type.Integer({ description: 'The message this one answers' })),
  url: Type.String({ description: 'The message page, e.g. /messages/12/' }),
  created_at: SecondsTimestamp,
  read_at: Nullable(SecondsTimestamp),
});

export type MessageJson = Static<typeof MessageResource>;

export async function messageResource(row: MessageRow, presenter: ForumPresenter): Promise<MessageJson> {
  const [subject, body] = await Promise.all([presenter.messageSubject(row.subject), presenter.messageBody(row.body)]);
  return {
    id: row.id,
    subject,
    body: row.body,
    body_html: body.value,
    sender: authorResource(row.sender_id, row.sender_name),
    recipient: authorResource(row.recipient_id, row.recipient_name),
    reply_to_id: row.reply_to_id,
    url: messagePath(row.id),
    created_at: isoSeconds(row.created_at),
    read_at: row.read_at === null ? null : isoSeconds(row.read_at),
  };
}
