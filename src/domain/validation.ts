/**
 * Input checking with TypeBox: one schema serves the route, the CLI and the import. `parseInput` drops unknown
 * fields, trims strings, converts numbers and booleans from form strings, and throws ValidationFailed with one
 * translatable message per field.
 */
import { Type, type Static, type TObject, type TSchema } from "@sinclair/typebox";
import { ValueErrorType } from "@sinclair/typebox/errors";
import { Value } from "@sinclair/typebox/value";
import { message, ValidationFailed, type Message } from "./errors";

export { Type as t };

/** Something@domain.tld, with no spaces and no control characters (a NUL would make a lookalike of an address). */
const EMAIL = /^[^\s@\u0000-\u001f\u007f]+@[^\s@\u0000-\u001f\u007f]+\.[^\s@\u0000-\u001f\u007f]+$/;

/** Field helpers with the limits Mesa uses everywhere. */
export const field = {
  text: (min = 1, max = 255) => Type.String({ minLength: min, maxLength: max }),
  email: () => Type.String({ minLength: 3, maxLength: 254, pattern: EMAIL.source, messageKey: "validation.email" }),
  password: () => Type.String({ minLength: 1, maxLength: 200 }),
  optionalText: (max = 255) => Type.Optional(Type.String({ maxLength: max })),
  boolean: () => Type.Boolean(),
};

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
  if (type === ValueErrorType.ObjectRequiredProperty || value === undefined || value === "") return message("validation.required");
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

/** Checks `input` against `schema`; returns the cleaned value or throws ValidationFailed. */
export function parseInput<S extends TObject>(schema: S, input: unknown, keepStringsAsIs: string[] = []): Static<S> {
  const source = (input && typeof input === "object" ? input : {}) as Record<string, unknown>;
  const prepared: Record<string, unknown> = {};
  const tooMany: Record<string, Message> = {};
  for (const key of Object.keys(schema.properties)) {
    if (!(key in source)) continue;
    if (oversizedArray(schema.properties[key], source[key])) {
      tooMany[key] = message("validation.too_many_items", { max: Math.min(schema.properties[key].maxItems ?? MAX_ITEMS, MAX_ITEMS) });
      continue;
    }
    // Passwords keep their spaces; everything else is trimmed.
    prepared[key] = keepStringsAsIs.includes(key) ? source[key] : trimStrings(source[key]);
  }
  if (Object.keys(tooMany).length) throw new ValidationFailed(tooMany);
  const value = Value.Convert(schema, Value.Clean(schema, prepared));
  const errors: Record<string, Message> = {};
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
