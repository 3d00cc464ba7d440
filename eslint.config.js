// Lint for Mesa: TypeScript's recommended rules, React's hooks rules and jsx-a11y on the pages, and the import
// boundaries of the layers (the domain, the database and the command line never reach into the HTTP layer; the
// browser reaches only into the shared kernel, src/shared, which reaches nowhere).
import tseslint from "typescript-eslint";
import reactHooks from "eslint-plugin-react-hooks";
import jsxA11y from "eslint-plugin-jsx-a11y";

const intoHttp = {
  patterns: [
    {
      group: ["**/http/*", "**/http/**", "!**/http/routing", "!**/http/assets"],
      message: "The domain, the database and the command line do not import the HTTP layer (src/http).",
    },
  ],
};

// Diners are read through the view visibleDiners, which leaves out those of an unfinished import (docs/decisions/018);
// only the diners' writers, and the counts that guard deletions, name the table itself.
const theDinersTable = {
  group: ["**/db/schema", "**/db/schema/*"],
  importNames: ["diners"],
  message: "Read diners through visibleDiners (docs/decisions/018-diners-invisible-until-imported.md).",
};
const dinersWriters = [
  "src/domain/sales/diners.ts",
  "src/domain/sales/usage.ts",
  "src/domain/food/levels.ts",
  "src/domain/sales/diner-import/**",
  "db/**",
];

// The browser takes values and types only from the shared kernel (src/shared) and the generated contracts there,
// never from the domain, the HTTP layer, the database or the command line.
const outsideTheKernel = {
  patterns: [
    {
      group: ["**/src/*", "**/src/**", "!**/src/shared", "!**/src/shared/**", "**/db/**", "**/cli/**"],
      message:
        'The browser imports from src/shared only (the shared kernel: docs/architecture.md, "The shared kernel").',
    },
  ],
};

// The kernel is pure: it imports nothing of Mesa's outside itself, and no database or server package.
const intoTheLayers = {
  patterns: [
    {
      group: ["**/domain/**", "**/http/**", "**/realtime/**", "**/mail/**", "**/db/**", "**/cli/**", "**/resources/**"],
      message: "src/shared is the kernel the browser, the server and the command line share: it imports only itself.",
    },
    {
      group: ["drizzle-orm", "drizzle-orm/*", "bun:*", "node:*", "elysia"],
      message: "src/shared runs in the browser too.",
    },
  ],
};

export default tseslint.config(
  {
    ignores: [
      "node_modules/**",
      "public/build/**",
      "storage/**",
      "test-results/**",
      "playwright-report/**",
      "**/*.generated.ts",
    ],
  },
  ...tseslint.configs.recommended,
  {
    rules: {
      "@typescript-eslint/no-explicit-any": "off",
      "@typescript-eslint/no-unused-vars": [
        "error",
        { argsIgnorePattern: "^_", varsIgnorePattern: "^_", caughtErrors: "none", ignoreRestSiblings: true },
      ],
    },
  },
  // Tests build binary fixtures with comma sequences of writes (u16(a, 1), u16(a, 2)).
  { files: ["**/*.test.ts"], rules: { "@typescript-eslint/no-unused-expressions": "off" } },
  {
    files: ["resources/js/**/*.tsx", "resources/js/**/*.ts"],
    plugins: { "react-hooks": reactHooks, "jsx-a11y": jsxA11y },
    rules: {
      ...jsxA11y.configs.recommended.rules,
      // The rules of hooks, and their dependencies as warnings (the React Compiler's stricter rules are not adopted).
      "react-hooks/rules-of-hooks": "error",
      "react-hooks/exhaustive-deps": "warn",
      // Mesa focuses the first field of a form on purpose: sign-in, dialogs and the cashier's search are keyboard-first.
      "jsx-a11y/no-autofocus": "off",
    },
  },
  {
    files: ["src/domain/**/*.ts", "db/**/*.ts", "cli/**/*.ts"],
    ignores: ["**/*.test.ts"],
    rules: { "no-restricted-imports": ["error", { patterns: [...intoHttp.patterns, theDinersTable] }] },
  },
  {
    files: dinersWriters,
    ignores: ["**/*.test.ts"],
    rules: { "no-restricted-imports": ["error", intoHttp] },
  },
  {
    files: ["resources/js/**/*.ts", "resources/js/**/*.tsx"],
    rules: { "no-restricted-imports": ["error", outsideTheKernel] },
  },
  {
    files: ["src/shared/**/*.ts"],
    ignores: ["**/*.test.ts", "**/*.typecheck.ts"],
    rules: { "no-restricted-imports": ["error", intoTheLayers] },
  },
);
