import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';

// The layer table of docs/architecture.md, held by folder name so files can move freely
// inside a layer. A glob such as `**/ml` matches every relative path into that folder at any depth
// (`../ml/x`, `../../ml`), so each layer lists the layers it may not reach. src/main.tsx and
// src/App.tsx wire everything together and are not restricted.
const layers = ['core', 'ml', 'browser', 'workers', 'store', 'components', 'charts'];
const packages = {
  ui: ['react', 'react/*', 'react-dom', 'react-dom/*', 'recharts', 'recharts/*'],
  store: ['zustand', 'zustand/*'],
  tensors: ['@tensorflow/*', 'h5wasm', 'nsfwjs', 'nsfwjs/*'],
};

/** A no-restricted-imports rule that forbids the given layers and packages, with one reason each. */
function forbid(name, { layers: outer = [], packages: pkgs = [], also = [] }) {
  const patterns = [...also];
  if (outer.length > 0) {
    patterns.push({
      group: outer.map((l) => `**/${l}`),
      message: `${name} may not import ${outer.join(', ')}.`,
    });
  }
  if (pkgs.length > 0) patterns.push({ group: pkgs, message: `${name} may not import this package.` });
  return { 'no-restricted-imports': ['error', { patterns }] };
}

/** Every layer except the given ones. */
const allBut = (...allowed) => layers.filter((l) => !allowed.includes(l));

// ml/ also runs in the worker, so its production code may not reach for Node built-ins; its tests may.
const noNodeBuiltins = {
  group: ['node:*'],
  message: 'ml/ runs in the worker too; Node modules only in tests.',
};
const tests = 'src/**/*.test.{ts,tsx}';
// Globals that the worker's libs declare but Node (where ml/ is tested) lacks.
const workerOnlyGlobals = [
  'self',
  'postMessage',
  'importScripts',
  'createImageBitmap',
  'OffscreenCanvas',
  'ImageBitmap',
  'FileReader',
  'indexedDB',
  'navigator',
  'location',
];

// Page and worker pixel types, banned from ml/ type positions. tfjs's copy of @webgpu/types declares
// HTMLCanvasElement and HTMLVideoElement stubs, so tsconfig.ml.json alone lets those two through.
const pixelTypes = [
  'ImageBitmap',
  'ImageData',
  'OffscreenCanvas',
  'HTMLCanvasElement',
  'HTMLVideoElement',
].map((name) => [name, 'ml/ has no DOM and runs in Node: take plain pixels (see ml/data/pipeline).']);

// core/'s folders, lowest first (docs/architecture.md): a folder may import core/'s root files and the
// folders before it, never one after it, so the subjects cannot form a cycle. A pattern such as
// `**/planner/*` matches a path into that folder at any depth (`../planner/tfjs`, `../../core/planner/x`).
const coreFolders = [
  'device',
  'memory',
  'model',
  'data',
  'settings',
  'planner',
  'oom',
  'sweep',
  'run',
  'experiments',
  'workshop',
  'export',
];

/** The folder-order pattern for files in core/<folder> (or core/'s root files, folder null). */
function folderOrder(folder) {
  const later = coreFolders.slice(folder === null ? 0 : coreFolders.indexOf(folder) + 1);
  if (later.length === 0) return [];
  const where = folder === null ? "core/'s root files" : `core/${folder}/`;
  return [
    {
      group: later.map((f) => `**/${f}/*`),
      message: `${where} may not import ${later.join(', ')} (folder order, docs/architecture.md).`,
    },
  ];
}

/** core/ imports nothing outside core/: no other layer and no package (the regex lets relative paths through). */
const coreImports = (regex, message, folder) =>
  forbid('core/', { layers: allBut('core'), also: [{ regex, message }, ...folderOrder(folder)] });

/** The core/ rules, one block per row of the folder order, for sources and for tests. */
function coreRules() {
  const source = [
    'core/ is pure TypeScript: it imports no package but zod (the one settings schema).',
    '^(?!\\.\\.?/|zod$)',
  ];
  const test = ['core/ tests import vitest and core/ only.', '^(?!\\.\\.?/|vitest$)'];
  return [null, ...coreFolders].flatMap((folder) => {
    const files = folder === null ? 'src/core/*' : `src/core/${folder}/**/*`;
    return [
      {
        files: [`${files}.ts`],
        ignores: [tests],
        languageOptions: { globals: {} },
        rules: coreImports(source[1], source[0], folder),
      },
      {
        files: [`${files}.test.ts`],
        languageOptions: { globals: {} },
        rules: coreImports(test[1], test[0], folder),
      },
    ];
  });
}
const mlImports = (also) =>
  forbid('ml/', { layers: allBut('core', 'ml'), packages: [...packages.ui, ...packages.store], also });

export default tseslint.config(
  {
    ignores: ['dist', 'node_modules', 'playwright-report', 'test-results', '.e2e-fixtures', 'interop/.venv'],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.browser, ...globals.node } },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_' }],
      'no-warning-comments': ['error', { terms: ['todo', 'fixme', 'xxx'], location: 'start' }],
    },
  },
  {
    // A list spread into a call's arguments overflows the call stack past about 100,000 items (a results
    // file's peaks blanked the page so): src/core/extent.ts has maxOf, minOf and append for any length.
    // Tests spread their own short, fixed lists.
    files: ['src/**/*.{ts,tsx}'],
    ignores: [tests],
    rules: {
      'no-restricted-syntax': [
        'error',
        {
          selector:
            "CallExpression[callee.type='MemberExpression'][callee.property.name=/^(max|min|push|unshift|fromCharCode|fromCodePoint)$/] > SpreadElement",
          message:
            'A spread into Math.max/min, push or fromCharCode overflows the stack on long lists: use maxOf, minOf or append (core/extent.ts).',
        },
      ],
    },
  },
  {
    // The size guide (no file over 400 lines, no function over 60), held by the linter. Tests are
    // exempt: a table of cases reads best in one place.
    files: ['src/**/*.{ts,tsx}'],
    ignores: [tests],
    rules: {
      'max-lines': ['error', { max: 400, skipBlankLines: true, skipComments: true }],
      'max-lines-per-function': ['error', { max: 60, skipBlankLines: true, skipComments: true }],
    },
  },
  {
    files: ['src/components/**/*.{ts,tsx}', 'src/charts/**/*.{ts,tsx}', 'src/*.tsx'],
    plugins: { 'react-hooks': reactHooks },
    rules: reactHooks.configs.recommended.rules,
  },
  ...coreRules(),
  {
    files: ['src/ml/**/*.ts'],
    ignores: [tests],
    rules: {
      ...mlImports([noNodeBuiltins]),
      // tsconfig.ml.json gives ml/ the worker's libs for fetch, URL, TextDecoder and performance.
      'no-restricted-globals': [
        'error',
        ...workerOnlyGlobals.map((name) => ({
          name,
          message: 'ml/ runs in Node too: take it as a parameter.',
        })),
      ],
      '@typescript-eslint/no-restricted-types': ['error', { types: Object.fromEntries(pixelTypes) }],
    },
  },
  { files: ['src/ml/**/*.test.ts'], rules: mlImports([]) },
  {
    files: ['src/browser/**/*.ts'],
    rules: forbid('browser/', {
      layers: allBut('core', 'ml', 'browser'),
      packages: [...packages.ui, ...packages.store],
    }),
  },
  {
    files: ['src/workers/**/*.ts'],
    rules: forbid('workers/', { layers: ['components', 'charts'], packages: packages.ui }),
  },
  {
    // The worker thread itself never sees the page's store; only the client (page side) updates it.
    files: ['src/workers/**/*.worker.ts'],
    rules: forbid('the training worker', {
      layers: ['components', 'charts', 'store'],
      packages: [...packages.ui, ...packages.store],
      also: [{ group: ['**/client'], message: 'the worker does not import the page-side client.' }],
    }),
  },
  {
    files: ['src/store/**/*.ts'],
    rules: forbid('store/', {
      layers: allBut('core', 'store'),
      packages: [...packages.ui, ...packages.tensors],
    }),
  },
  {
    files: ['src/components/**/*.{ts,tsx}', 'src/charts/**/*.{ts,tsx}'],
    rules: forbid('views (components/, charts/)', {
      layers: ['ml', 'browser', 'workers'],
      packages: packages.tensors,
    }),
  },
);
