/** The demo account: a verified user to sign in with on a fresh install. Its password is generated and printed once. */
import { randomToken } from "../../src/crypto";
import { createUser, findUserByEmail } from "../../src/domain/accounts/users";
import type { Seeder } from "./index";

export const DEMO_EMAIL = "demo@mesa.test";

export const demoAccount: Seeder = {
  name: "Demo account",
  async run(db, config) {
    const existing = findUserByEmail(db, DEMO_EMAIL);
    if (existing) return [`${DEMO_EMAIL} already exists (its password is unchanged).`];
    const password = `mesa-${randomToken(9)}`;
    await createUser(db, config, { name: "Demo Mesa", email: DEMO_EMAIL, password, language: config.locale }, { verified: true });
    return [`Sign in at ${config.appUrl}/login`, `  e-mail:   ${DEMO_EMAIL}`, `  password: ${password}`];
  },
};
