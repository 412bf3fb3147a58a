// ESLint with typescript-eslint over the whole tree, run by `npm test` (see
// docs/formatting.md). typescript-eslint parses with TypeScript's JavaScript
// API, which TypeScript 7 (the project's `tsc`) no longer ships. This folder is
// a workspace of its own so that the TypeScript 5.9 it installs stays here (its
// `tsc` must not replace the project's), and its modules are pointed at it.
// Type checking stays tsc 7's.
import { createRequire, registerHooks } from 'node:module';
import { URL, fileURLToPath, pathToFileURL } from 'node:url';

const here = createRequire(import.meta.url);
registerHooks({
  resolve(specifier, context, next) {
    if ((specifier === 'typescript' || specifier.startsWith('typescript/')) && /[\\/](?:@typescript-eslint|typescript-eslint|ts-api-utils)[\\/]/.test(context.parentURL ?? '')) {
      // The subpath too (the project service loads typescript/lib/tsserverlibrary).
      return { url: pathToFileURL(here.resolve(specifier)).href, format: 'commonjs', shortCircuit: true };
    }
    return next(specifier, context);
  },
});

const { default: js } = await import('@eslint/js');
const { default: tseslint } = await import('typescript-eslint');

export default tseslint.config(
  { ignores: ['node_modules/', '**/node_modules/', 'data/', 'src/**/assets/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    files: ['**/*.ts'],
    rules: {
      // A leading underscore names what a signature or a destructuring must mention but does not use.
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', ignoreRestSiblings: true }],
    },
  },
  {
    // Time is an input (src/clock.ts): a rule that reads the wall clock cannot be tested by moving a
    // clock. Where wall time is meant (a duration logged, a probe's timestamp), the line says why:
    // `// eslint-disable-next-line no-restricted-syntax -- <why>`.
    files: ['src/**/*.ts'],
    ignores: ['src/clock.ts'],
    rules: {
      'no-restricted-syntax': [
        'error',
        {
          selector: "CallExpression[callee.object.name='Date'][callee.property.name='now']",
          message: 'Read the time from the Clock the service was built with (src/clock.ts), or say on the line before why wall time is meant.',
        },
        {
          selector: "NewExpression[callee.name='Date'][arguments.length=0]",
          message: 'Read the time from the Clock the service was built with (src/clock.ts), or say on the line before why wall time is meant.',
        },
      ],
    },
  },
  {
    // Rules that need the types: a promise nobody awaits or handles, an await of something that is no promise, a
    // promise where a plain value is expected (a condition, a callback whose result is ignored).
    files: ['src/**/*.ts', 'test/**/*.ts', 'bench/**/*.ts'],
    languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: fileURLToPath(new URL('../..', import.meta.url)) } },
    rules: {
      // node:test's describe and it return promises the runner itself awaits.
      '@typescript-eslint/no-floating-promises': [
        'error',
        { allowForKnownSafeCalls: [{ from: 'package', package: 'node:test', name: ['describe', 'it', 'test', 'suite', 'before', 'after', 'beforeEach', 'afterEach'] }] },
      ],
      '@typescript-eslint/await-thenable': 'error',
      '@typescript-eslint/no-misused-promises': ['error', { checksVoidReturn: { arguments: false, attributes: false } }],
    },
  },
);
