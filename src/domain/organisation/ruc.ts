/**
 * Tax ids (RUC). Peru's RUC has 11 digits and its last digit is a check digit (SUNAT's modulo 11 with the weights
 * 5 4 3 2 7 6 5 4 3 2), and its first two digits say what kind of taxpayer it is (10 a person, 15 and 17 other
 * individuals, 16 a non-domiciled one, 20 a company). The length is the RUC_LENGTH setting; the prefix and the
 * check digit are verified for 11-digit ids, the only length whose rules Mesa knows.
 */
import { message, type Message } from "../../shared/message";

const WEIGHTS = [5, 4, 3, 2, 7, 6, 5, 4, 3, 2];
const PREFIXES = ["10", "15", "16", "17", "20"];

/** True when an 11-digit RUC's last digit matches the check digit of the first ten. */
export function hasValidCheckDigit(ruc: string): boolean {
  if (!/^\d{11}$/.test(ruc)) return false;
  const sum = WEIGHTS.reduce((acc, weight, i) => acc + weight * Number(ruc[i]), 0);
  const check = (11 - (sum % 11)) % 10;
  return check === Number(ruc[10]);
}

/** The message for a bad RUC, or null when `ruc` (already trimmed) is acceptable. */
export function rucProblem(ruc: string, length: number): Message | null {
  if (!new RegExp(`^\\d{${length}}$`).test(ruc)) return message("validation.ruc_format", { length });
  if (length === 11 && !PREFIXES.includes(ruc.slice(0, 2)))
    return message("validation.ruc_prefix", { prefixes: PREFIXES.join(", ") });
  if (length === 11 && !hasValidCheckDigit(ruc)) return message("validation.ruc_check_digit");
  return null;
}
