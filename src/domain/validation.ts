/**
 * Input checking with TypeBox: one schema serves the route, the CLI and the import. `parseInput` drops unknown
 * fields, trims strings, converts numbers and booleans from form strings, and throws ValidationFailed with one
 * translatable message per field.
 */
import { FormatRegistry, Type, type Static, type TObject, type TSchema } from "@sinclair/typebox";
import { ValueErrorType } from "@sinclair/typebox/errors";
import { Value } from "@sinclair/typebox/value";
import {
  DEFAULT_DOCUMENT_TYPE,
  DOCUMENT_TYPES,
  documentProblem,
  normalizeDocumentNumber,
  type Document,
  type DocumentSettings,
  type DocumentType,
} from "../shared/documents";
import { EMAIL_SHAPE, emailAddressProblem } from "./accounts/email-address";
import { ValidationFailed } from "./errors";
import { message, type Message } from "../shared/message";
import type { TranslationKey } from "../shared/i18n";

export { Type as t };

declare module "@sinclair/typebox" {
  interface SchemaOptions {
    /** The message shown when a value breaks this schema's rule: a translation key, checked by the compiler. */
    messageKey?: TranslationKey;
  }
}

/** The format of an e-mail address Mesa stores: the rule of src/domain/accounts/email-address.ts. */
const EMAIL_ADDRESS_FORMAT = "mesa-email-address";
FormatRegistry.Set(EMAIL_ADDRESS_FORMAT, (value) => emailAddressProblem(value) === null);

/** Field helpers with the limits Mesa uses everywhere. */
export const field = {
  text: (min = 1, max = 255) => Type.String({ minLength: min, maxLength: max }),
  /**
   * An address to store (an account's, a business's): shaped like name@domain.tld, with no invisible character, no
   * styled letter and no mixed scripts, each refused with its own message (emailAddressProblem).
   */
  email: () => Type.String({ minLength: 3, maxLength: 254, format: EMAIL_ADDRESS_FORMAT }),
  /** An address to look an account up by (sign-in, password reset): its shape only, so older accounts are found. */
  emailLookup: () =>
    Type.String({ minLength: 3, maxLength: 254, pattern: EMAIL_SHAPE.source, messageKey: "validation.email" }),
  password: () => Type.String({ minLength: 1, maxLength: 200 }),
  optionalText: (max = 255) => Type.Optional(Type.String({ maxLength: max })),
  boolean: () => Type.Boolean(),
  /** DNI, carné de extranjería or passport (src/shared/documents.ts). */
  documentType: () =>
    Type.Union(
      DOCUMENT_TYPES.map((type) => Type.Literal(type)),
      { messageKey: "validation.document.type" },
    ),
  /** A document number as typed (spaces and dashes allowed); its rule by type is checked by parseWithDocument. */
  documentNumber: () => Type.String({ minLength: 1, maxLength: 30 }),
};

/**
 * The two fields of a document in a form: `document_type` (DNI when left out) and `document_number`. Spread them
 * into a schema and parse it with parseWithDocument, which also checks the number by its type. An optional
 * document also takes null or an empty number for "none".
 */
export function documentFields(options: { optional: boolean }) {
  return options.optional
    ? {
        document_type: Type.Optional(Type.Union([field.documentType(), Type.Null()])),
        document_number: Type.Optional(Type.Union([Type.String({ maxLength: 30 }), Type.Null()])),
      }
    : { document_type: Type.Optional(field.documentType()), document_number: field.documentNumber() };
}

/** Items of one array field, and messages reported for one input: past these, checking stops. */
const MAX_ITEMS = 1000;
const MAX_ERRORS = 100;

/** Arrays longer than a schema allows (or than MAX_ITEMS) are refused before anything walks them. */
function oversizedArray(schema: TSchema, value: unknown): boolean {
  if (!Array.isArray(value)) return false;
  const limit = typeof schema.maxItems === "number" ? Math.min(schema.maxItems, MAX_ITEMS) : MAX_ITEMS;
  return value.length > limit;
}

function trimStrings(value: unknown): unknown {
  if (typeof value === "string") return value.trim();
  if (Array.isArray(value)) return value.map(trimStrings);
  if (value && typeof value === "object" && !(value instanceof Blob)) {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, trimStrings(v)]));
  }
  return value;
}

function messageFor(schema: TSchema, type: ValueErrorType, value: unknown): Message {
  if (type === ValueErrorType.ObjectRequiredProperty || value === undefined || value === "")
    return message("validation.required");
  // An address's own rule says what is wrong with it (too long or short reads as not an address).
  if (schema.format === EMAIL_ADDRESS_FORMAT)
    return (typeof value === "string" && emailAddressProblem(value)) || message("validation.email");
  if (typeof schema.messageKey === "string") return message(schema.messageKey);
  switch (type) {
    case ValueErrorType.StringMinLength:
      return message("validation.min_length", { min: schema.minLength });
    case ValueErrorType.StringMaxLength:
      return message("validation.max_length", { max: schema.maxLength });
    case ValueErrorType.Union:
    case ValueErrorType.Literal:
      return message("validation.invalid_choice");
    case ValueErrorType.Boolean:
      return message("validation.boolean");
    case ValueErrorType.Integer:
    case ValueErrorType.Number:
      return message("validation.number");
    default:
      return message("validation.invalid");
  }
}

/** Whether a schema (or one member of a union) takes whole numbers. */
function takesIntegers(schema: TSchema): boolean {
  if (schema.type === "integer") return true;
  return Array.isArray(schema.anyOf) && (schema.anyOf as TSchema[]).some(takesIntegers);
}

/**
 * The paths where a whole number is expected and a number with a fraction was sent (2.7, "2.7"): TypeBox's
 * conversion would cut it to 2, and a person asking for 2.7 of something must be told, not served 2.
 */
function fractionsGiven(schema: TSchema, value: unknown, path: string, found: Record<string, Message>): void {
  if (value === null || value === undefined) return;
  if (takesIntegers(schema)) {
    const number = typeof value === "string" && value.trim() !== "" ? Number(value) : value;
    if (typeof number === "number" && Number.isFinite(number) && !Number.isInteger(number))
      found[path] = message("validation.whole_number");
    return;
  }
  if (schema.type === "object" && schema.properties && typeof value === "object" && !Array.isArray(value))
    for (const [key, property] of Object.entries(schema.properties as Record<string, TSchema>))
      fractionsGiven(property, (value as Record<string, unknown>)[key], path ? `${path}.${key}` : key, found);
  if (schema.type === "array" && schema.items && Array.isArray(value))
    value.forEach((item, index) => fractionsGiven(schema.items as TSchema, item, `${path}.${index}`, found));
}

/** Checks `input` against `schema`; returns the cleaned value or throws ValidationFailed. */
export function parseInput<S extends TObject>(schema: S, input: unknown, keepStringsAsIs: string[] = []): Static<S> {
  const source = (input && typeof input === "object" ? input : {}) as Record<string, unknown>;
  const prepared: Record<string, unknown> = {};
  const tooMany: Record<string, Message> = {};
  for (const key of Object.keys(schema.properties)) {
    if (!(key in source)) continue;
    if (oversizedArray(schema.properties[key], source[key])) {
      tooMany[key] = message("validation.too_many_items", {
        max: Math.min(schema.properties[key].maxItems ?? MAX_ITEMS, MAX_ITEMS),
      });
      continue;
    }
    // Passwords keep their spaces; everything else is trimmed.
    prepared[key] = keepStringsAsIs.includes(key) ? source[key] : trimStrings(source[key]);
  }
  if (Object.keys(tooMany).length) throw new ValidationFailed(tooMany);
  const cleaned = Value.Clean(schema, prepared);
  const errors: Record<string, Message> = {};
  fractionsGiven(schema, cleaned, "", errors);
  const value = Value.Convert(schema, cleaned);
  let reported = 0;
  for (const error of Value.Errors(schema, value)) {
    const path = error.path.replace(/^\//, "").replace(/\//g, ".");
    if (path === "" || path in errors) continue;
    errors[path] = messageFor(error.schema, error.type, error.value);
    if (++reported >= MAX_ERRORS) break;
  }
  if (Object.keys(errors).length) throw new ValidationFailed(errors);
  return value as Static<S>;
}

/**
 * parseInput for a schema with documentFields, reporting every bad field at once: the schema's messages and the
 * number's rule by its type ("El DNI debe tener 8 dígitos."), the DNI length coming from `settings`. Returns the
 * cleaned input and the normalized document, null when an optional document is left blank.
 */
export function parseWithDocument<S extends TObject>(
  schema: S,
  input: unknown,
  settings: DocumentSettings,
  keepStringsAsIs: string[] = [],
): { data: Static<S>; document: Document | null } {
  let data: Static<S> | null = null;
  let errors: Record<string, Message> = {};
  try {
    data = parseInput(schema, input, keepStringsAsIs);
  } catch (error) {
    if (!(error instanceof ValidationFailed)) throw error;
    errors = { ...error.errors };
  }
  let document: Document | null = null;
  if (!errors.document_type && !errors.document_number) {
    // The cleaned input, or the raw one when another field failed.
    const values = (data ?? (input && typeof input === "object" ? input : {})) as Record<string, unknown>;
    const raw = values.document_number;
    const number = typeof raw === "string" || typeof raw === "number" ? normalizeDocumentNumber(String(raw)) : "";
    // The schema has checked the type: one of the types, or left out (or null) for the default.
    const type = (
      typeof values.document_type === "string" && values.document_type !== ""
        ? values.document_type
        : DEFAULT_DOCUMENT_TYPE
    ) as DocumentType;
    if (number !== "") {
      const problem = documentProblem({ type, number }, settings);
      if (problem) errors.document_number = problem;
      else document = { type, number };
    } else if (schema.required?.includes("document_number")) {
      errors.document_number = message("validation.required");
    }
  }
  if (Object.keys(errors).length || !data) throw new ValidationFailed(errors);
  return { data, document };
}
