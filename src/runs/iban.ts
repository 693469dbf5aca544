/**
 * An IBAN as a bank reads it: two letters, two check digits and 10 to 30 letters or digits, spaces
 * aside. Compared without case; at least six digits in a row keep words like `AB12CDEFGHIJKLMN` out.
 */

/** The most four-character groups after the first when an IBAN is printed in groups. */
export const MAX_IBAN_GROUPS = 7;

/** True when `text[start, end)` is an IBAN written as one run (`DE89370400440532013000`). */
export function isIban(text: string, start = 0, end = text.length): boolean {
  const length = end - start;
  if (length < 14 || length > 34 || !isIbanStart(text, start, start + 4)) return false;
  let digits = 0;
  let longest = 0;
  for (let i = start; i < end; i++) {
    const c = text.charCodeAt(i);
    if (isDigit(c)) longest = Math.max(longest, ++digits);
    else if (isAsciiLetter(c)) digits = 0;
    else return false;
  }
  return longest >= 6;
}

/** True when `text[start, end)` is an IBAN's first group: two letters, two digits (`DE89`). */
export function isIbanStart(text: string, start: number, end: number): boolean {
  return (
    end - start === 4 &&
    isAsciiLetter(text.charCodeAt(start)) &&
    isAsciiLetter(text.charCodeAt(start + 1)) &&
    isDigit(text.charCodeAt(start + 2)) &&
    isDigit(text.charCodeAt(start + 3))
  );
}

/** True when `text[start, end)` can be a later group: one to four ASCII letters or digits. */
export function isIbanGroup(text: string, start: number, end: number): boolean {
  if (end - start < 1 || end - start > 4) return false;
  for (let i = start; i < end; i++) {
    const c = text.charCodeAt(i);
    if (!isDigit(c) && !isAsciiLetter(c)) return false;
  }
  return true;
}

function isDigit(c: number): boolean {
  return c >= 48 && c <= 57;
}

function isAsciiLetter(c: number): boolean {
  return (c >= 65 && c <= 90) || (c >= 97 && c <= 122);
}
