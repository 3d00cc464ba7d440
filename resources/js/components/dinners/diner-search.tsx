/**
 * The point of sale's one input, for a barcode scanner or a typed name. A scanner types a document's digits fast
 * and ends with Enter: nothing is asked while digits arrive, Enter looks the document up (GET diners.search) and
 * hands the one diner found to the page, which sells at once. A typed name shows a typeahead (a listbox of at most
 * eight diners, arrow keys and Enter) after a short pause; Enter picks the highlighted diner, or the only one. Digits
 * are never a name (readScan): digits of a length no document has are refused at once, with what is wrong.
 */
import { ScanBarcode } from "lucide-react";
import { forwardRef, useEffect, useId, useImperativeHandle, useRef, useState, type KeyboardEvent } from "react";
import type { Message } from "../../../../src/shared/message";
import { readScan } from "../../../../src/shared/sales/scan";
import { useI18n } from "../../hooks/use-i18n";
import { useRoute } from "../../hooks/use-route";
import { cn } from "../../lib/utils";
import { inputClasses } from "../ui/field";
import { requestJson } from "../../lib/json-client";
import type { DinerView } from "./types";

/** Digits only: a scanner (or a cashier) typing a document; no typeahead for these. */
const DIGITS = /^\s*\d+\s*$/;
/** The pause after typing before the typeahead asks the server. */
const TYPEAHEAD_MS = 180;

export interface DinerSearchHandle {
  focus: () => void;
  clear: () => void;
  /** What a scan that arrived elsewhere (in a dialog) typed: put in the input and looked up as if Enter came. */
  scan: (text: string) => void;
  /** The start of a scan that began elsewhere (in a quantity): put in the input, which takes the focus for the rest. */
  typeIn: (text: string) => void;
}

export const DinerSearch = forwardRef<
  DinerSearchHandle,
  {
    /** A diner chosen: by a document found, the only match of a name, or the listbox. */
    onPick: (diner: DinerView) => void;
    /** A document nobody has (normalized, with why it may be misread), or a name that matches nobody. */
    onUnknown: (text: string, isDocument: boolean, note?: Message | null) => void;
    /** Digits no document has this many of (a misread): what is wrong. Nothing was asked. */
    onInvalid: (problem: Message) => void;
    /** DNI_LENGTH. */
    dniLength: number;
    /** The search itself failed (offline, signed out). */
    onFailure: () => void;
    /** A sale is being sent: Enter waits. */
    busy: boolean;
    disabled?: boolean;
  }
>(function DinerSearch({ onPick, onUnknown, onInvalid, dniLength, onFailure, busy, disabled = false }, ref) {
  const { t } = useI18n();
  const route = useRoute();
  const listId = useId();
  const hintId = useId();
  const input = useRef<HTMLInputElement>(null);
  const [text, setText] = useState("");
  const [results, setResults] = useState<DinerView[]>([]);
  const [open, setOpen] = useState(false);
  const [active, setActive] = useState(-1);
  const [searching, setSearching] = useState(false);
  /** The latest results and what they answer, so Enter reuses a typeahead's answer. */
  const answered = useRef<{ query: string; diners: DinerView[] } | null>(null);
  /** The search in flight: its query, the way to cancel it, and its answer (which a second asker of the same query shares). */
  const pending = useRef<{
    query: string;
    controller: AbortController;
    answer: Promise<DinerView[] | null | undefined>;
  } | null>(null);

  useImperativeHandle(ref, () => ({
    // What is left in the field (a refused document, a half-typed name) is selected: the next scan replaces it.
    focus: () => {
      input.current?.focus();
      input.current?.select();
    },
    clear: () => {
      pending.current?.controller.abort();
      setText("");
      setResults([]);
      setOpen(false);
      setActive(-1);
      answered.current = null;
    },
    typeIn: (typed: string) => {
      pending.current?.controller.abort();
      answered.current = null;
      setText(typed);
      if (input.current) input.current.value = typed;
      input.current?.focus();
    },
    scan: (scanned: string) => {
      setText(scanned);
      if (input.current) input.current.value = scanned;
      input.current?.focus();
      void submit(scanned);
    },
  }));

  /**
   * The diners found; null when the search failed; undefined when a search for other text replaced it. A search for
   * the text already being searched (the typeahead's, when Enter follows it) waits for that one rather than cancel it.
   */
  const search = (query: string): Promise<DinerView[] | null | undefined> => {
    if (answered.current?.query === query) return Promise.resolve(answered.current.diners);
    if (pending.current?.query === query && !pending.current.controller.signal.aborted) return pending.current.answer;
    pending.current?.controller.abort();
    const controller = new AbortController();
    const answer = fetchDiners(query, controller);
    pending.current = { query, controller, answer };
    return answer;
  };

  const fetchDiners = async (query: string, controller: AbortController): Promise<DinerView[] | null | undefined> => {
    setSearching(true);
    try {
      const { status, body } = await requestJson<DinerView[]>("GET", route("diners.search", { q: query }), undefined, {
        signal: controller.signal,
      });
      if (status !== 200 || !Array.isArray(body)) {
        if (status === 401 || status === 419) window.location.reload();
        return null;
      }
      answered.current = { query, diners: body };
      return body;
    } catch (error) {
      if ((error as Error).name === "AbortError") return undefined;
      return null;
    } finally {
      if (pending.current?.controller === controller) {
        pending.current = null;
        setSearching(false);
      }
    }
  };

  // The typeahead: names only, after a pause.
  useEffect(() => {
    const query = text.trim();
    if (query.length < 2 || DIGITS.test(query)) {
      setResults([]);
      setOpen(false);
      setActive(-1);
      return;
    }
    const timer = window.setTimeout(async () => {
      const found = await search(query);
      if (!found) return;
      setResults(found);
      setOpen(true);
      setActive(-1);
    }, TYPEAHEAD_MS);
    return () => window.clearTimeout(timer);
  }, [text]);

  const choose = (diner: DinerView) => {
    setOpen(false);
    setActive(-1);
    onPick(diner);
  };

  const submit = async (scanned?: string) => {
    // Read from the field itself: a scanner's Enter follows its last digit at once.
    const query = (scanned ?? input.current?.value ?? text).trim();
    if (query === "" || busy) return;
    if (scanned === undefined && open && active >= 0 && results[active]) return choose(results[active]);
    const reading = readScan(query, { dniLength });
    if (reading.kind === "wrong-length") {
      setOpen(false);
      input.current?.select();
      return onInvalid(reading.problem);
    }
    const found = await search(query);
    if (found === undefined) return;
    if (found === null) return onFailure();
    if (reading.kind === "document") {
      const number = reading.number;
      const exact = found.filter((d) => d.documentNumber === number);
      if (exact.length === 1) return choose(exact[0]);
      if (exact.length === 0) {
        setOpen(false);
        return onUnknown(number, true, reading.note);
      }
      setResults(exact);
      setOpen(true);
      setActive(0);
      return;
    }
    if (found.length === 1) return choose(found[0]);
    if (found.length === 0) {
      setOpen(false);
      return onUnknown(query, false);
    }
    setResults(found);
    setOpen(true);
    setActive(0);
  };

  const onKeyDown = (event: KeyboardEvent<HTMLInputElement>) => {
    if (event.key === "Enter") {
      event.preventDefault();
      void submit();
    } else if (event.key === "ArrowDown" && results.length > 0) {
      event.preventDefault();
      setOpen(true);
      setActive((i) => (i + 1) % results.length);
    } else if (event.key === "ArrowUp" && results.length > 0) {
      event.preventDefault();
      setOpen(true);
      setActive((i) => (i <= 0 ? results.length - 1 : i - 1));
    } else if (event.key === "Escape" && open) {
      event.preventDefault();
      setOpen(false);
      setActive(-1);
    }
  };

  const expanded = open && text.trim().length > 0;
  return (
    <div className="relative">
      <label htmlFor={`${listId}-input`} className="mb-1.5 block text-sm font-medium">
        {t("dinners.search_label")}
      </label>
      <div className="relative">
        <ScanBarcode
          className="pointer-events-none absolute left-3 top-1/2 size-5 -translate-y-1/2 text-muted-foreground"
          aria-hidden="true"
        />
        <input
          ref={input}
          id={`${listId}-input`}
          type="text"
          role="combobox"
          aria-expanded={expanded}
          aria-controls={listId}
          aria-autocomplete="list"
          aria-activedescendant={expanded && active >= 0 ? `${listId}-${active}` : undefined}
          aria-describedby={hintId}
          aria-busy={searching || busy || undefined}
          autoComplete="off"
          autoCapitalize="off"
          spellCheck={false}
          // The point of sale exists for this field: it has the focus when the page opens.
          autoFocus
          disabled={disabled}
          value={text}
          onChange={(e) => {
            setText(e.target.value);
            answered.current = null;
          }}
          onKeyDown={onKeyDown}
          onBlur={() => window.setTimeout(() => setOpen(false), 150)}
          placeholder={t("dinners.search_placeholder")}
          className={cn(inputClasses, "h-12 pl-11 text-lg")}
          data-testid="pos-input"
          data-pos-scan=""
        />
      </div>
      <p id={hintId} className="mt-1 text-xs text-muted-foreground">
        {t("dinners.search_hint")}
      </p>
      <ul
        id={listId}
        role="listbox"
        aria-label={t("dinners.matches")}
        hidden={!expanded}
        className="absolute left-0 right-0 z-20 mt-1 max-h-96 overflow-y-auto rounded-md border bg-card p-1 shadow-lg"
      >
        {expanded && results.length === 0 && (
          <li role="presentation" className="px-3 py-2 text-sm text-muted-foreground">
            {t("dinners.no_matches")}
          </li>
        )}
        {expanded &&
          results.map((diner, index) => (
            <li
              key={diner.id}
              id={`${listId}-${index}`}
              role="option"
              aria-selected={index === active}
              className={cn(
                "cursor-pointer rounded-sm px-3 py-2 text-sm",
                index === active ? "bg-accent text-accent-foreground" : "hover:bg-accent/60",
              )}
              // mousedown keeps the focus in the input.
              onMouseDown={(e) => {
                e.preventDefault();
                choose(diner);
              }}
            >
              <span className="block font-medium">
                {diner.name}
                {diner.barredReason !== null && (
                  <span className="ml-2 rounded bg-destructive px-1.5 text-xs text-destructive-foreground">
                    {t("dinners.barred")}
                  </span>
                )}
                {!diner.active && (
                  <span className="ml-2 rounded bg-muted px-1.5 text-xs text-muted-foreground">
                    {t("dinners.inactive")}
                  </span>
                )}
              </span>
              <span className="block text-xs text-muted-foreground">
                {diner.documentType.toUpperCase()} {diner.documentNumber} · {diner.subdealershipName} · {diner.cafeName}
              </span>
            </li>
          ))}
      </ul>
    </div>
  );
});
