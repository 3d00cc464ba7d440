import { index, integer, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";
import { DOCUMENT_TYPES } from "../../src/shared/documents";

/**
 * People who sign in to Mesa. E-mail addresses are stored trimmed and lower-cased, so the unique index makes
 * them unique regardless of case.
 */
export const users = sqliteTable(
  "users",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    name: text("name").notNull(),
    email: text("email").notNull(),
    passwordHash: text("password_hash").notNull(),
    emailVerifiedAt: integer("email_verified_at", { mode: "timestamp_ms" }),
    language: text("language", { enum: ["es", "en"] }),
    status: text("status", { enum: ["active", "deactivated"] })
      .notNull()
      .default("active"),
    /** The optional identity document (src/shared/documents.ts): both set or both null; the number normalized. */
    documentType: text("document_type", { enum: DOCUMENT_TYPES }),
    documentNumber: text("document_number"),
    /** SHA-256 of the remember-me token; replaced on sign-out and password change so old cookies stop working. */
    rememberTokenHash: text("remember_token_hash"),
    lastSignInAt: integer("last_sign_in_at", { mode: "timestamp_ms" }),
    createdAt: integer("created_at", { mode: "timestamp_ms" }).notNull(),
    updatedAt: integer("updated_at", { mode: "timestamp_ms" }).notNull(),
  },
  (table) => [
    uniqueIndex("users_email_unique").on(table.email),
    index("users_document_index").on(table.documentType, table.documentNumber),
  ],
);

/**
 * One pending password link per e-mail, stored hashed: a reset (valid 60 minutes) or an invitation to choose a
 * first password (valid longer).
 */
export const passwordResetTokens = sqliteTable("password_reset_tokens", {
  email: text("email").primaryKey(),
  tokenHash: text("token_hash").notNull(),
  createdAt: integer("created_at", { mode: "timestamp_ms" }).notNull(),
  expiresAt: integer("expires_at", { mode: "timestamp_ms" }).notNull(),
});

/** Attempt counters for throttling (sign-in, password reset, verification mail, password change). */
export const rateLimits = sqliteTable("rate_limits", {
  key: text("key").primaryKey(),
  attempts: integer("attempts").notNull(),
  resetAt: integer("reset_at").notNull(),
});
