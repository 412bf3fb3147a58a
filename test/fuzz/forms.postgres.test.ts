// The forms fuzz (forms-fuzz.ts) on PostgreSQL; the SQLite half is a file of its own so that the runner runs the two at once.
import { describeOnDatabase } from '../helpers/app.ts';
import { fuzzForms } from './forms-fuzz.ts';

describeOnDatabase('postgres', 'fuzz: the forms', (db) => fuzzForms(db, 'test/fuzz/forms.postgres.test.ts'));
