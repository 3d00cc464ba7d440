/**
 * Light, dark or system. Kept in localStorage under `appearance` and in a cookie of the same name (365 days,
 * path /, SameSite=Lax) so the server paints the right theme first. "system" follows the OS and reacts when
 * it changes.
 */
import { useCallback, useEffect, useState } from "react";
import type { Appearance } from "../types";

const KEY = "appearance";
const YEAR_SECONDS = 365 * 24 * 60 * 60;
const listeners = new Set<(value: Appearance) => void>();

function isAppearance(value: unknown): value is Appearance {
  return value === "light" || value === "dark" || value === "system";
}

function prefersDark(): boolean {
  return typeof window !== "undefined" && window.matchMedia("(prefers-color-scheme: dark)").matches;
}

/** Sets the `dark` class on <html> for the given preference. */
export function applyAppearance(value: Appearance): void {
  const root = document.documentElement;
  root.dataset.appearance = value;
  root.classList.toggle("dark", value === "dark" || (value === "system" && prefersDark()));
}

function storedAppearance(): Appearance {
  try {
    const stored = localStorage.getItem(KEY);
    if (isAppearance(stored)) return stored;
  } catch {}
  const fromDom = document.documentElement.dataset.appearance;
  return isAppearance(fromDom) ? fromDom : "system";
}

function persist(value: Appearance): void {
  try {
    localStorage.setItem(KEY, value);
  } catch {}
  const secure = location.protocol === "https:" ? ";Secure" : "";
  document.cookie = `${KEY}=${value};path=/;max-age=${YEAR_SECONDS};SameSite=Lax${secure}`;
}

/** Called once at start-up: applies the stored preference and follows OS changes while it is "system". */
export function initializeAppearance(): void {
  const value = storedAppearance();
  persist(value);
  applyAppearance(value);
  window.matchMedia("(prefers-color-scheme: dark)").addEventListener("change", () => {
    const current = storedAppearance();
    if (current === "system") applyAppearance("system");
  });
}

/** The current preference and a setter; `initial` is what the server read from the cookie (no hydration mismatch). */
export function useAppearance(initial: Appearance) {
  const [appearance, setAppearance] = useState<Appearance>(initial);

  useEffect(() => {
    setAppearance(storedAppearance());
    const listener = (value: Appearance) => setAppearance(value);
    listeners.add(listener);
    return () => {
      listeners.delete(listener);
    };
  }, []);

  const update = useCallback((value: Appearance) => {
    persist(value);
    applyAppearance(value);
    for (const listener of listeners) listener(value);
  }, []);

  return { appearance, updateAppearance: update } as const;
}
