/**
 * Trimming a repeated character from the end of a string, in one backward pass. The pattern
 * `/x+$/` looks like the same thing but is tried at every `x` against the rest of the string:
 * quadratic in a long run of `x` that is not at the end (a 100 kB run of `/` took minutes).
 */

/** `s` without the `char`s it ends with (`trimEnd('a//', '/')` is `a`); `char` is one UTF-16 unit. */
export function trimEnd(s: string, char: string): string {
  let end = s.length;
  while (end > 0 && s[end - 1] === char) end--;
  return end === s.length ? s : s.slice(0, end);
}
