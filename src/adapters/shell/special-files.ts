/** Redirect targets that are not files of the repository. */

/** A file descriptor (`&2`, `1`, `-`). */
export const isFd = (t: string): boolean => /^&?-?\d*-?$/.test(t);

/** The null device, standard streams and /proc. */
export const isNull = (t: string): boolean => t === '/dev/null' || t.startsWith('/dev/std') || t.startsWith('/proc/');
