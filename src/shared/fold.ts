/**
 * Text as searches compare it: lower case without accents. Shared by the server's searches (src/domain/search.ts,
 * and the SQL function it registers) and by the browser where it filters a list it already holds.
 */

/** The reference folding: lower case, canonical decomposition, marks dropped, recomposed. */
function foldSlowly(text: string): string {
  return text.toLowerCase().normalize("NFD").replace(/\p{M}/gu, "").normalize("NFC");
}

/**
 * Each character below U+0250 (ASCII, Latin-1 and Latin Extended-A and B: every accented letter of Spanish and its
 * neighbours) folded on its own by the reference folding. Folding those one by one gives what folding the whole text
 * gives: lower-casing them depends on no context, each decomposes on its own, and the bare letters left recompose
 * with nothing. Text with any other character (a combining accent typed on its own, another script) is folded
 * by the reference folding.
 */
const FOLDED_BELOW_0250 = Array.from({ length: 0x250 }, (_, code) => foldSlowly(String.fromCharCode(code)));

/** Lower case without accents ("Huamán" → "huaman", "ÑUÑOA" → "nunoa"): the form searches compare. */
export function foldText(text: string): string {
  let folded = "";
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code >= 0x250) return foldSlowly(text);
    folded += FOLDED_BELOW_0250[code];
  }
  return folded;
}
