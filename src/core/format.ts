/** One formatter for the page: `toLocaleString` builds a new one on every call, thousands of times a render. */
const THOUSANDS = new Intl.NumberFormat('en-US');

/** A count with thousands separators: 1,234,567. */
export const count = (n: number): string => THOUSANDS.format(n);
