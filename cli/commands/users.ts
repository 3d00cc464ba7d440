/** `./mesa user:create`, `user:list`, `user:password` and `user:deactivate`. */
import { Option, type Command } from "commander";
import { emailLookalike } from "../../src/domain/accounts/email-address";
import { createUser, listUsers, requireUserByEmail, setPasswordFor, type User } from "../../src/domain/accounts/users";
import { setUserStatus } from "../../src/domain/access/users-admin";
import { EVERYTHING } from "../../src/domain/access/scope";
import { CLI_ACTOR } from "../../src/domain/audit";
import { Conflict, NotFound } from "../../src/domain/errors";
import { CliError, cliConfig, cliDatabase } from "../bootstrap";
import { cliEvents } from "../events";
import { explainValidation, say, table } from "../output";
import { assignAfterCreate, checkAssignment } from "./access";
import { COMPANY_WIDE, placesOfArea, recordAudit } from "../../src/domain/audit";
import { DOCUMENT_TYPES, type DocumentType } from "../../src/shared/documents";
import { translate } from "../../src/shared/i18n";

/** The password from the option, or from standard input when it is piped (never asked on a terminal). */
async function readPassword(option: string | undefined): Promise<string> {
  if (option !== undefined) return option;
  if (process.stdin.isTTY) throw new CliError("Give the password with --password, or pipe it on standard input.");
  const text = await new Response(Bun.stdin.stream()).text();
  const password = text.replace(/\r?\n$/, "");
  if (password === "") throw new CliError("No password was given on standard input.");
  return password;
}

export function registerUserCommands(program: Command): void {
  program
    .command("user:create")
    .description("Create a user (the password is read from standard input when --password is omitted)")
    .requiredOption("--name <name>", "full name")
    .requiredOption("--email <email>", "e-mail address (unique)")
    .option("--password <password>", "first password")
    .option("--verified", "mark the e-mail as already verified")
    .option("--language <es|en>", "interface language")
    .option("--document <number>", "identity document number (a DNI unless --document-type says otherwise)")
    .addOption(
      new Option(
        "--document-type <type>",
        "the type of --document: dni (default), ce (carné de extranjería) or pas (passport)",
      ).choices(DOCUMENT_TYPES),
    )
    .option("--role <role>", "give the user this role in --area")
    .option(
      "--area <area>",
      'the area for --role: its name, or "Area@Place" when the name repeats (see ./mesa user:assign --help)',
    )
    .action(
      async (opts: {
        name: string;
        email: string;
        password?: string;
        verified?: boolean;
        language?: string;
        document?: string;
        documentType?: DocumentType;
        role?: string;
        area?: string;
      }) => {
        if (opts.documentType !== undefined && opts.document === undefined)
          throw new CliError("Give --document-type together with --document.");
        const config = cliConfig();
        const db = cliDatabase(config);
        const areaId = checkAssignment(db, opts.role, opts.area);
        const password = await readPassword(opts.password);
        const input = {
          name: opts.name,
          email: opts.email,
          password,
          language: opts.language,
          document_type: opts.documentType,
          document_number: opts.document,
        };
        const user = await createUser(db, config, input, { verified: opts.verified }).catch((error) =>
          explainValidation(error, config.locale),
        );
        // The account's place is the area of --area (the role there follows at once); without one it has no place yet.
        const places = areaId === null ? COMPANY_WIDE : placesOfArea(db, areaId);
        recordAudit(db, CLI_ACTOR, {
          action: "user.created",
          subjectType: "user",
          subjectId: user.id,
          places,
          after: {
            name: user.name,
            email: user.email,
            documentType: user.documentType,
            documentNumber: user.documentNumber,
          },
        });
        console.log(
          `Created user #${user.id} ${user.email}${user.emailVerifiedAt ? " (verified)" : " (e-mail not verified)"}`,
        );
        const assigned = assignAfterCreate(db, user.email, opts.role, opts.area, config.locale);
        if (assigned) console.log(assigned);
      },
    );

  program
    .command("user:list")
    .description("List users with their status")
    .option("--json", "print JSON")
    .action((opts: { json?: boolean }) => {
      const config = cliConfig();
      const db = cliDatabase(config);
      const users = listUsers(db);
      if (opts.json) {
        console.log(
          JSON.stringify(
            users.map(({ passwordHash, rememberTokenHash, ...rest }) => ({
              ...rest,
              emailLookalike: emailLookalike(rest.email),
            })),
            null,
            2,
          ),
        );
        return;
      }
      if (users.length === 0) {
        console.log("No users yet. Create one with ./mesa user:create.");
        return;
      }
      console.log(
        table(
          ["ID", "E-MAIL", "NAME", "STATUS", "VERIFIED", "LAST SIGN-IN"],
          users.map((u) => [
            String(u.id),
            u.email,
            u.name,
            u.status,
            u.emailVerifiedAt ? "yes" : "no",
            u.lastSignInAt?.toISOString() ?? "never",
          ]),
        ),
      );
      // Addresses stored before look-alikes were refused, that could pass for another account's.
      for (const u of users) {
        const lookalike = emailLookalike(u.email);
        if (lookalike)
          console.log(
            `#${u.id}: ${translate(config.locale, `access.users.email_lookalike.${lookalike.problem}`)} ${translate(config.locale, "access.users.email_lookalike.reads", { address: lookalike.revealed })}`,
          );
      }
    });

  program
    .command("user:password")
    .description("Set a user's password (read from standard input when --password is omitted); their sessions end")
    .argument("<email>", "the user's e-mail address")
    .option("--password <password>", "the new password")
    .action(async (email: string, opts: { password?: string }) => {
      const config = cliConfig();
      const db = cliDatabase(config);
      let user: User;
      try {
        user = requireUserByEmail(db, email);
      } catch (error) {
        if (error instanceof NotFound) throw new CliError(error.message);
        throw error;
      }
      const password = await readPassword(opts.password);
      await setPasswordFor(db, config, CLI_ACTOR, user, password).catch((error) =>
        explainValidation(error, config.locale),
      );
      console.log(`New password set for ${user.email}; their sessions and remember-me sign-in have ended.`);
    });

  program
    .command("user:deactivate")
    .description(
      "Deactivate a user: their sessions, open tabs and realtime connections end and they can no longer sign in",
    )
    .argument("<email>", "the user's e-mail address")
    .action(async (email: string) => {
      const config = cliConfig();
      const db = cliDatabase(config);
      const events = cliEvents(config);
      try {
        const user = requireUserByEmail(db, email);
        setUserStatus(db, CLI_ACTOR, EVERYTHING, user.id, "deactivated", events.publisher);
        console.log(`Deactivated ${user.email}; their sessions have ended.`);
      } catch (error) {
        if (error instanceof NotFound) throw new CliError(error.message);
        // The last super-administrator: refused, nothing changed.
        if (error instanceof Conflict) throw new CliError(say(config.locale, error.detail));
        throw error;
      }
      // Their open tabs and realtime connections, as the Users page ends them; the running Mesa is reached over HTTP.
      const outcome = await events.outcome();
      if (outcome) console.log(outcome);
    });
}
