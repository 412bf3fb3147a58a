// The JSON shape of a torrent, built in one function for every endpoint.
import { Type, type Static } from 'typebox';
import { Nullable } from '../../http/schemas.ts';
import { SecondsTimestamp, isoSeconds } from '../../http/timestamps.ts';
import { profilePath, topicPath } from '../../urls/paths.ts';
import type { StatusChangeRow, TorrentFileRow } from './repository.ts';
import type { TorrentView } from './service.ts';
import { FREELEECH_KINDS, TORRENT_STATUSES } from './statuses.ts';

export const TorrentStatusSchema = Type.Unsafe<(typeof TORRENT_STATUSES)[number]>({
  type: 'string',
  enum: [...TORRENT_STATUSES],
  description: 'closed, duplicate, closed_by_right_holder, absorbed and premoderation are frozen: no download, no announce',
});

export const FreeleechSchema = Type.Unsafe<(typeof FREELEECH_KINDS)[number]>({
  type: 'string',
  enum: [...FREELEECH_KINDS],
  description: 'none; silver: download counted at 50%; gold: download not counted',
});

const FileResource = Type.Object({
  path: Type.String({ description: "Inside the torrent's folder, parts joined with /" }),
  size: Type.Integer({ description: 'Bytes' }),
});

const StatusChangeResource = Type.Object({
  from: Nullable(TorrentStatusSchema),
  to: TorrentStatusSchema,
  by: Nullable(Type.Object({ id: Type.Integer(), name: Type.String() })),
  at: SecondsTimestamp,
});

export const TorrentResource = Type.Object({
  id: Type.Integer(),
  topic_id: Type.Integer(),
  forum_id: Type.Integer(),
  name: Type.String(),
  size: Type.Integer({ description: 'Total bytes of the files' }),
  info_hash_v1: Nullable(Type.String({ description: 'SHA-1 of the info dictionary, 40 hex digits; null for a v2-only torrent' })),
  info_hash_v2: Nullable(Type.String({ description: 'SHA-256 of the info dictionary, 64 hex digits; null for a v1-only torrent' })),
  status: TorrentStatusSchema,
  freeleech: FreeleechSchema,
  seeders: Type.Integer({ description: 'Peers with the whole torrent, now' }),
  leechers: Type.Integer({ description: 'Peers still downloading, now' }),
  completed: Type.Integer({ description: 'Times the torrent was downloaded completely' }),
  piece_length: Type.Integer(),
  piece_count: Type.Integer(),
  files_count: Type.Integer(),
  creation_date: Nullable(SecondsTimestamp),
  uploader: Nullable(Type.Object({ id: Type.Integer(), name: Type.String(), url: Type.String() })),
  topic_url: Type.String({ description: 'Semantic path of the topic page' }),
  download_url: Type.String({ description: 'GET it (signed in) for the .torrent with your passkey' }),
  registered_at: SecondsTimestamp,
  status_changed_at: SecondsTimestamp,
  files: Nullable(Type.Array(FileResource, { description: 'On GET /api/torrents/{id}; null in lists' })),
  status_history: Nullable(Type.Array(StatusChangeResource, { description: 'On GET /api/torrents/{id}; null in lists' })),
});

export type TorrentJson = Static<typeof TorrentResource>;

export function torrentResource(row: TorrentView, details?: { files: TorrentFileRow[]; history: StatusChangeRow[] }): TorrentJson {
  return {
    id: row.id,
    topic_id: row.topic_id,
    forum_id: row.forum_id,
    name: row.name,
    size: row.size,
    info_hash_v1: row.info_hash_v1,
    info_hash_v2: row.info_hash_v2,
    status: row.status,
    freeleech: row.freeleech,
    seeders: row.seeders,
    leechers: row.leechers,
    completed: row.completed_count,
    piece_length: row.piece_length,
    piece_count: row.piece_count,
    files_count: row.files_count,
    creation_date: row.creation_date === null ? null : isoSeconds(row.creation_date),
    uploader:
      row.uploader_id === null || row.uploader_name === null
        ? null
        : { id: row.uploader_id, name: row.uploader_name, url: profilePath({ id: row.uploader_id, name: row.uploader_name }) },
    topic_url: topicPath({ id: row.topic_id, title: row.topic_title }),
    download_url: `/api/torrents/${row.id}/download`,
    registered_at: isoSeconds(row.registered_at),
    status_changed_at: isoSeconds(row.status_changed_at),
    files: details === undefined ? null : details.files.map((file) => ({ path: file.path, size: file.size })),
    status_history:
      details === undefined
        ? null
        : details.history.map((change) => ({
            from: change.from_status,
            to: change.to_status,
            by: change.changed_by === null || change.changed_by_name === null ? null : { id: change.changed_by, name: change.changed_by_name },
            at: isoSeconds(change.changed_at),
          })),
  };
}
