/**
 * A time of day on the 24-hour clock ("07:30", "19:00") in both languages. A native `<input type="time">` follows the
 * browser's own language, so an English browser shows AM/PM whatever the page's language; this is a text input that
 * takes what a person types ("7", "730", "7:30", "19.00", "19h") and writes it as HH:MM when they leave it.
 */
import type { InputHTMLAttributes } from "react";
import { cn } from "../../lib/utils";
import { inputClasses } from "./field";

/** "7" → "07:00", "730" → "07:30", "7:5" → "07:05", "19.00" → "19:00", "19h" → "19:00"; null when it is no time. */
export function normalizeTime(text: string): string | null {
  const typed = text.trim().toLowerCase().replace(/\s+/g, "");
  if (typed === "") return null;
  let hours: string;
  let minutes: string;
  const split = /^(\d{1,2})[:.h](\d{0,2})$/.exec(typed);
  if (split) {
    hours = split[1];
    minutes = split[2] === "" ? "0" : split[2];
  } else if (/^\d{1,4}$/.test(typed)) {
    hours = typed.length <= 2 ? typed : typed.slice(0, typed.length - 2);
    minutes = typed.length <= 2 ? "0" : typed.slice(-2);
  } else return null;
  const h = Number(hours);
  const m = Number(minutes);
  if (h > 23 || m > 59) return null;
  return `${String(h).padStart(2, "0")}:${String(m).padStart(2, "0")}`;
}

export type TimeInputProps = Omit<InputHTMLAttributes<HTMLInputElement>, "type" | "value" | "onChange"> & {
  /** "HH:MM", or what the person is typing. */
  value: string;
  onChange: (value: string) => void;
};

export function TimeInput({ value, onChange, onBlur, className, ...props }: TimeInputProps) {
  return (
    <input
      type="text"
      inputMode="numeric"
      autoComplete="off"
      placeholder="HH:MM"
      maxLength={5}
      {...props}
      className={cn(inputClasses, "font-mono tabular-nums", className)}
      value={value}
      onChange={(event) => onChange(event.target.value)}
      onBlur={(event) => {
        const normalized = normalizeTime(event.target.value);
        if (normalized && normalized !== event.target.value) onChange(normalized);
        onBlur?.(event);
      }}
      data-time-input=""
    />
  );
}
