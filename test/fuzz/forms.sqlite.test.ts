// The forms fuzz (forms-fuzz.ts) on SQLite; the PostgreSQL half is a file of its own so that the runner runs the two at once.
import { describeOnDatabase } from '../helpers/app.ts';
import { fuzzForms } from './forms-fuzz.ts';

describeOnDatabase('sqlite', 'fuzz: the forms', (db) => fuzzForms(db, 'test/fuzz/forms.sqlite.test.ts'));
