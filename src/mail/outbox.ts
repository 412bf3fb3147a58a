// Reading the outbox: every message the forum sent or kept (see mailer.ts),
// for admins when mail does not go out through SMTP or failed to.
import type { Kysely, Selectable } from 'kysely';
import type { Database, OutboxTable } from '../db/schema.ts';
import { ModelNotFoundError } from '../http/errors.ts';
import type { PageRequest } from '../http/pagination.ts';

export type OutboxMessage = Selectable<OutboxTable>;

export interface OutboxCounts {
  total: number;
  /** Delivery through SMTP was tried and failed. */
  failed: number;
}

export class Outbox {
  readonly #db: Kysely<Database>;

  constructor(db: Kysely<Database>) {
    this.#db = db;
  }

  /** Newest first. */
  async list(page: PageRequest): Promise<{ rows: OutboxMessage[]; total: number }> {
    const [rows, count] = await Promise.all([
      this.#db.selectFrom('outbox').selectAll().orderBy('created_at', 'desc').orderBy('id', 'desc').offset(page.offset).limit(page.perPage).execute(),
      this.#db
        .selectFrom('outbox')
        .select((eb) => eb.fn.countAll<number>().as('total'))
        .executeTakeFirstOrThrow(),
    ]);
    return { rows, total: Number(count.total) };
  }

  async get(id: number): Promise<OutboxMessage> {
    const row = await this.#db.selectFrom('outbox').selectAll().where('id', '=', id).executeTakeFirst();
    if (row === undefined) throw new ModelNotFoundError('OutboxMessage', id);
    return row;
  }

  async counts(): Promise<OutboxCounts> {
    const row = await this.#db
      .selectFrom('outbox')
      .select((eb) => [eb.fn.countAll<number>().as('total'), eb.fn.count<number>('error').as('failed')])
      .executeTakeFirstOrThrow();
    return { total: Number(row.total), failed: Number(row.failed) };
  }
}
