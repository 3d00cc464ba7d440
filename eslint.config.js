// Lint for Mesa: TypeScript's recommended rules, React's hooks rules and jsx-a11y on the pages, and the import
// boundaries of the layers (the domain, the database and the command line never reach into the HTTP layer).
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
    rules: { "no-restricted-imports": ["error", intoHttp] },
  },
);
