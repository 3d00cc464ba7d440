/**
 * Prints a ticket without leaving the point of sale: the ticket page (with ?print=1, which records the print and
 * opens the print dialog on load) in a hidden frame of its own. A new ticket replaces the previous one.
 */
const FRAME_ID = "pos-print-frame";

export function printInFrame(url: string, title: string): void {
  let frame = document.getElementById(FRAME_ID) as HTMLIFrameElement | null;
  if (!frame) {
    frame = document.createElement("iframe");
    frame.id = FRAME_ID;
    frame.title = title;
    frame.tabIndex = -1;
    frame.setAttribute("aria-hidden", "true");
    Object.assign(frame.style, { position: "fixed", right: "0", bottom: "0", width: "0", height: "0", border: "0" });
    document.body.appendChild(frame);
  }
  frame.src = url;
}

/** A new key for one sale attempt: a UUID, made from random bytes where randomUUID is missing (plain http). */
export function newSaleKey(): string {
  if (typeof crypto.randomUUID === "function") return crypto.randomUUID();
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
}
