// ESLint with typescript-eslint over the whole tree, run by `npm test` (see
// docs/formatting.md). typescript-eslint parses with TypeScript's JavaScript
// API, which TypeScript 7 (the project's `tsc`) no longer ships. This folder is
// a workspace of its own so that the TypeScript 5.9 it installs stays here (its
// `tsc` must not replace the project's), and its modules are pointed at it.
// Type checking stays tsc 7's.
import { createRequire, registerHooks } from 'node:module';
import { pathToFileURL } from 'node:url';

const typescript5 = pathToFileURL(createRequire(import.meta.url).resolve('typescript')).href;
registerHooks({
  resolve(specifier, context, next) {
    if (specifier === 'typescript' && /[\\/](?:@typescript-eslint|typescript-eslint|ts-api-utils)[\\/]/.test(context.parentURL ?? '')) {
      return { url: typescript5, format: 'commonjs', shortCircuit: true };
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
);
