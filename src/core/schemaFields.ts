/**
 * Field types of the settings schema, each with the message a person reads when a value is wrong: the
 * setting's name, what it must be and what it got. The saved settings, a link's values and the settings
 * form all go through these, so a bad value reads the same wherever it came from.
 */
import { z } from 'zod';

// Every schema module imports this one, so this runs before any parse. The page's Content-Security-Policy
// forbids eval; without `jitless` zod probes `new Function` for its compiled parsers, which the browser
// reports as a policy violation even though zod catches the error.
z.config({ jitless: true });

/** The value as the message quotes it: strings in quotes, everything else as written. */
export const shown = (v: unknown): string =>
  typeof v === 'string' ? `'${v}'` : Array.isArray(v) ? `[${v.map(shown).join(', ')}]` : String(v);

/** A whole number from lo to hi inclusive. */
export function wholeNumber(label: string, lo: number, hi: number) {
  const error = (iss: { input?: unknown }) =>
    `${label} must be a whole number from ${lo} to ${hi} (got ${String(iss.input)}).`;
  return z.number({ error }).refine((v) => Number.isInteger(v) && v >= lo && v <= hi, { error });
}

/** A finite number strictly between lo and hi; `why` is added to the message when given. */
export function numberBetween(label: string, lo: number, hi: number, why = '') {
  const error = (iss: { input?: unknown }) =>
    `${label} must be above ${lo} and below ${hi} (got ${String(iss.input)})${why}.`;
  return z.number({ error }).refine((v) => v > lo && v < hi, { error });
}

/** One of a fixed list of words. */
export function oneOf<const T extends readonly [string, ...string[]]>(label: string, values: T) {
  return z.enum(values, {
    error: (iss) => `${label} must be one of ${values.join(', ')} (got ${shown(iss.input)}).`,
  });
}

/** On or off. */
export function flag(label: string) {
  return z.boolean({ error: (iss) => `${label} must be on or off (got ${shown(iss.input)}).` });
}

/** The messages of a failed parse, each once, in the schema's order. */
export function messages(result: { success: boolean; error?: z.ZodError }): string[] {
  return result.success || !result.error ? [] : [...new Set(result.error.issues.map((i) => i.message))];
}
