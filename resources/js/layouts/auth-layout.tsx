/**
 * A centred card for sign-in, registration and other pages outside the app frame. Everything sits in a landmark:
 * the app's name in the banner, the form in the main region, the language and theme choices in the footer.
 */
import { Link, usePage } from "@inertiajs/react";
import type { ReactNode } from "react";
import { AppearanceToggle } from "../components/appearance-toggle";
import { FlashMessages } from "../components/flash-messages";
import { LanguageSwitcher } from "../components/language-switcher";
import type { SharedProps } from "../types";
import { InsideMain } from "./main-landmark";

export default function AuthLayout({ children }: { children: ReactNode }) {
  const { app } = usePage<SharedProps>().props;
  return (
    <div className="flex min-h-screen flex-col items-center justify-center gap-6 p-6">
      <header>
        <Link href="/" className="flex items-center gap-2 text-xl font-semibold">
          <img src="/favicon.svg" alt="" className="size-8" />
          {app.name}
        </Link>
      </header>
      <main
        id="content"
        className="w-full max-w-sm space-y-4 rounded-xl border bg-card p-6 text-card-foreground shadow-sm"
      >
        <InsideMain.Provider value={true}>{children}</InsideMain.Provider>
      </main>
      <footer className="flex items-center gap-3">
        <LanguageSwitcher />
        <AppearanceToggle compact />
      </footer>
      <FlashMessages />
    </div>
  );
}
