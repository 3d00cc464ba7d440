/**
 * The places workbook's format (docs/places-workbook.md): its sheets, their columns and the words for service types
 * and yes or no, in Spanish and English, and how a header written in either is recognised.
 */
import { SERVICE_TYPES, type ServiceType } from "../../../../db/schema";
import type { ImportAbilities } from "./types";

export type SheetKind = "mines" | "units" | "cafes" | "services" | "prices";
export type ColumnKey =
  | "example"
  | "name"
  | "services"
  | "mine"
  | "unit"
  | "cafe"
  | "business"
  | "timeZone"
  | "code"
  | "type"
  | "description"
  | "active"
  | "service"
  | "price";
export type Language = "es" | "en";

/** Sheet names, in the order they are applied. */
export const SHEETS: Record<SheetKind, Record<Language, string>> = {
  services: { es: "Servicios", en: "Services" },
  mines: { es: "Minas", en: "Mines" },
  units: { es: "Unidades", en: "Units" },
  cafes: { es: "Comedores", en: "Cafes" },
  prices: { es: "Precios", en: "Prices" },
};

export const COLUMNS: Record<ColumnKey, Record<Language, string>> = {
  example: { es: "Ejemplo", en: "Example" },
  name: { es: "Nombre", en: "Name" },
  services: { es: "Servicios", en: "Services" },
  mine: { es: "Mina", en: "Mine" },
  unit: { es: "Unidad", en: "Unit" },
  cafe: { es: "Comedor", en: "Cafe" },
  business: { es: "Empresa", en: "Business" },
  timeZone: { es: "Zona horaria", en: "Time zone" },
  code: { es: "Código", en: "Code" },
  type: { es: "Tipo", en: "Type" },
  description: { es: "Descripción", en: "Description" },
  active: { es: "Activo", en: "Active" },
  service: { es: "Servicio", en: "Service" },
  price: { es: "Precio", en: "Price" },
};

/** Each sheet's columns; those marked required must be present in its header row. */
export const SHEET_COLUMNS: Record<SheetKind, { key: ColumnKey; required: boolean }[]> = {
  mines: [
    { key: "example", required: false },
    { key: "name", required: true },
    { key: "services", required: false },
  ],
  units: [
    { key: "example", required: false },
    { key: "mine", required: true },
    { key: "name", required: true },
    { key: "services", required: false },
  ],
  cafes: [
    { key: "example", required: false },
    { key: "mine", required: true },
    { key: "unit", required: true },
    { key: "name", required: true },
    { key: "business", required: false },
    { key: "timeZone", required: false },
    { key: "services", required: false },
  ],
  services: [
    { key: "example", required: false },
    { key: "code", required: true },
    { key: "name", required: true },
    { key: "type", required: true },
    { key: "description", required: false },
    { key: "active", required: false },
  ],
  prices: [
    { key: "example", required: false },
    { key: "mine", required: true },
    { key: "unit", required: true },
    { key: "cafe", required: true },
    { key: "service", required: true },
    { key: "price", required: true },
  ],
};

export const TYPE_NAMES: Record<ServiceType, Record<Language, string>> = {
  breakfast: { es: "desayuno", en: "breakfast" },
  lunch: { es: "almuerzo", en: "lunch" },
  dinner: { es: "cena", en: "dinner" },
  snack: { es: "refrigerio", en: "snack" },
  disposables: { es: "descartables", en: "disposables" },
};

export const PERMISSION: Record<SheetKind, keyof ImportAbilities> = {
  mines: "places",
  units: "places",
  cafes: "places",
  services: "services",
  prices: "prices",
};

/** Lower case, no accents, single spaces: "  Zona  Horaria " and "zona horaria" are the same header. */
export function normalise(text: string): string {
  return text.normalize("NFD").replace(/\p{M}/gu, "").toLowerCase().replace(/\s+/g, " ").trim();
}

export const SHEET_BY_NAME = new Map<string, SheetKind>(
  Object.entries(SHEETS).flatMap(([kind, names]) => [
    [normalise(names.es), kind as SheetKind],
    [normalise(names.en), kind as SheetKind],
  ]),
);
export const COLUMN_BY_NAME = new Map<string, ColumnKey>([
  ...Object.entries(COLUMNS).flatMap(([key, names]) => [
    [normalise(names.es), key as ColumnKey] as const,
    [normalise(names.en), key as ColumnKey] as const,
  ]),
  ["timezone", "timeZone"],
]);
export const TYPE_BY_NAME = new Map<string, ServiceType>(
  SERVICE_TYPES.flatMap((type) => [[TYPE_NAMES[type].es, type] as const, [TYPE_NAMES[type].en, type] as const]),
);
export const YES = new Set(["si", "yes", "true", "1", "verdadero", "x"]);
export const NO = new Set(["no", "false", "0", "falso"]);
