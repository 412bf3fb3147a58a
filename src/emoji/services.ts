// The emoji catalog's services, built once over the shared database.
import type { Clock } from '../clock.ts';
import type { DatabaseHandle } from '../db/database.ts';
import { AliasRepository } from './alias-repository.ts';
import { AliasService } from './alias-service.ts';
import { Catalog } from './catalog.ts';
import { CategoryRepository } from './category-repository.ts';
import { CategoryService } from './category-service.ts';
import { CodeRegistry } from './code-registry.ts';
import { EmojiRepository } from './emoji-repository.ts';
import { EmojiService } from './emoji-service.ts';
import { UnicodeImport } from './unicode-import.ts';

export interface EmojiServices {
  emojis: EmojiService;
  aliases: AliasService;
  categories: CategoryService;
  catalog: Catalog;
  unicodeImport: UnicodeImport;
}

export function createEmojiServices(database: DatabaseHandle, clock: Clock): EmojiServices {
  const { db } = database;
  const categoryRepository = new CategoryRepository(db);
  const emojiRepository = new EmojiRepository(db);
  const aliasRepository = new AliasRepository(db);
  const codes = new CodeRegistry(db);
  const catalog = new Catalog(categoryRepository, emojiRepository, aliasRepository, database.changes);
  return {
    emojis: new EmojiService(db, emojiRepository, categoryRepository, aliasRepository, codes, catalog, clock),
    aliases: new AliasService(db, aliasRepository, emojiRepository, categoryRepository, codes, catalog, clock),
    categories: new CategoryService(categoryRepository, emojiRepository, aliasRepository, catalog, clock),
    catalog,
    unicodeImport: new UnicodeImport(database, catalog, clock),
  };
}
