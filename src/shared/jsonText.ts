/**
 * Why a text is not JSON, with where: "line 3, column 14: Expected ',' or '}' after property value".
 * Engines word the message differently and only some give a line and column; the position they all
 * give (or the end of the text) is turned into one here, so a long pasted document can be fixed.
 */
export function jsonSyntaxProblem(text: string): string | null {
  try {
    JSON.parse(text);
    return null;
  } catch (err) {
    const message = err instanceof Error ? err.message : 'not valid JSON';
    const position = /at position (\d+)/.exec(message);
    const offset = position ? Number(position[1]) : /end of (JSON )?input/i.test(message) ? text.length : null;
    // The wording before "… at position N (line L column C)": cut at a literal, not with a pattern
    // that backtracks over a long message (the regex check of src/shared is linear-time).
    const cut = message.search(/ (?:in JSON )?at position /);
    const reason = (cut >= 0 ? message.slice(0, cut) : message).replace(/^JSON\.parse: /, '');
    if (offset === null) return reason;
    const before = text.slice(0, offset).split('\n');
    return `line ${before.length}, column ${before[before.length - 1].length + 1}: ${reason}`;
  }
}
