/** Calendar pieces shared by the conversation adapter (event dates) and retrieval (question dates). */

/** English month names, January first (index + 1 is the month number). */
export const MONTHS: readonly string[] =
  'january february march april may june july august september october november december'.split(' ');

/** Days since 1970-01-01 of a calendar date (UTC); months and days out of range roll over (day 0 is the last of the month before). */
export const dayNumber = (y: number, m: number, d: number): number => Math.floor(Date.UTC(y, m - 1, d) / 86_400_000);
