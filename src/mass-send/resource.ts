// The JSON shape of a mass send, built in one function: what was sent, by
// whom, to which audience, and how far the sending got.
import { Type, type Static } from 'typebox';
import { Nullable, OneOf } from '../http/schemas.ts';
import { SecondsTimestamp, isoSeconds } from '../http/timestamps.ts';
import { massSendAdminPath, profilePath } from '../urls/paths.ts';
import type { MassSendRow } from './repository.ts';
import { AUDIENCE_KINDS, AUDIENCE_ROLES, MASS_SEND_KINDS } from './service.ts';

export const MassSendResource = Type.Object({
  id: Type.Integer(),
  kind: OneOf(MASS_SEND_KINDS, 'message: a private message to each member; mail: an e-mail to each member who takes mass mail'),
  audience: Type.Object({
    kind: OneOf(AUDIENCE_KINDS),
    group_id: Nullable(Type.Integer({ description: 'The group (audience group); null otherwise, or once the group is deleted' })),
    group_name: Nullable(Type.String({ description: "The group's name when the send was made (audience group); null otherwise" })),
    role: Nullable(OneOf(AUDIENCE_ROLES, 'The role (audience role); null otherwise')),
  }),
  subject: Type.String(),
  body: Type.String({ description: 'BBCode, as written (a mail carries it as plain text)' }),
  sender: Type.Object({
    id: Nullable(Type.Integer({ description: "Null once the sender's account is deleted" })),
    name: Type.String(),
    url: Nullable(Type.String({ description: 'Profile page path' })),
  }),
  recipients: Type.Integer({ description: 'Members it was for when it was made' }),
  sent: Type.Integer({ description: 'Messages written or mails handed to the mailer so far' }),
  status: OneOf(['sending', 'done'] as const, 'sending: under way (or waiting to go on after a restart); done: every member was dealt with'),
  created_at: SecondsTimestamp,
  finished_at: Nullable(SecondsTimestamp),
  url: Type.String({ description: 'Its page in the administration' }),
});

export function massSendResource(send: MassSendRow): Static<typeof MassSendResource> {
  return {
    id: send.id,
    kind: send.kind,
    audience: { kind: send.audience, group_id: send.group_id, group_name: send.group_name, role: send.role },
    subject: send.subject,
    body: send.body,
    sender: {
      id: send.sender_id,
      name: send.sender_name,
      url: send.sender_id === null ? null : profilePath({ id: send.sender_id, name: send.sender_name }),
    },
    recipients: send.recipients,
    sent: send.sent,
    status: send.status,
    created_at: isoSeconds(send.created_at),
    finished_at: send.finished_at === null ? null : isoSeconds(send.finished_at),
    url: massSendAdminPath(send.id),
  };
}
