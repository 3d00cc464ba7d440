/**
 * The page's flash messages (`page.flash.success` and `.error`) as notices over the page (sonner), so they never
 * push the page down. Each kind is one notice that the next message of its kind replaces, and a new message
 * removes the other kind's (an error after a success means the success is old news). The text keeps the
 * `data-flash` attribute the browser tests look for. A page with a place of its own for them (an element marked
 * `data-flash-inline`, as the point of sale has beside its scan box) shows them there instead, in the flow of the
 * page, where they cover nothing: a till sells every few seconds, and a floating notice each time would sit over
 * its buttons.
 */
import { router, usePage } from "@inertiajs/react";
import { useEffect } from "react";
import { notify, Toaster } from "./ui/toaster";

type Flash = Record<string, unknown> | undefined;

function show(flash: Flash): void {
  const success = typeof flash?.success === "string" ? flash.success : null;
  const error = typeof flash?.error === "string" ? flash.error : null;
  if (!success && !error) return;
  if (document.querySelector("[data-flash-inline]")) {
    notify.dismiss("flash-success");
    notify.dismiss("flash-error");
    return;
  }
  if (!success) notify.dismiss("flash-success");
  if (!error) notify.dismiss("flash-error");
  if (success) notify.success(<span data-flash="success">{success}</span>, { id: "flash-success" });
  if (error) notify.error(<span data-flash="error">{error}</span>, { id: "flash-error", duration: 12000 });
}

export function FlashMessages() {
  const { flash } = usePage();
  useEffect(() => {
    // The first page's flash (rendered on the server), then every visit's. The Toaster, a child, listens already.
    show(flash as Flash);
    return router.on("flash", (event) => show(event.detail.flash as Flash));
  }, []);
  return <Toaster />;
}
