/** Texts up to this many characters are embedded whole by the local model. */
const LOCAL_CHUNK_CHARS = 1000;

/**
 * The pieces a text is embedded in: the text itself up to LOCAL_CHUNK_CHARS characters, else
 * consecutive pieces of at most that many, cut at the last whitespace of each piece (or mid-word
 * when a piece has none). Their vectors are averaged and L2-normalised: a long fact is found by
 * any of its parts, and nothing is silently dropped.
 */
export function chunkText(text: string): string[] {
  if (text.length <= LOCAL_CHUNK_CHARS) return [text];
  const pieces: string[] = [];
  let rest = text;
  while (rest.length > LOCAL_CHUNK_CHARS) {
    const window = rest.slice(0, LOCAL_CHUNK_CHARS + 1);
    const cut = window.search(/\s\S*$/);
    const end = cut > 0 ? cut : LOCAL_CHUNK_CHARS;
    const piece = rest.slice(0, end).trim();
    if (piece) pieces.push(piece);
    rest = rest.slice(end).trimStart();
  }
  if (rest.trim()) pieces.push(rest);
  return pieces.length > 0 ? pieces : [text];
}
