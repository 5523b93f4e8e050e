/**
 * A permissive getopt for the handful of coreutils recognisers read (cat, nl, sed, head, tail,
 * grep, tee, cp …): combined short flags (`-rn`), attached or separate values (`-n5`, `-n 5`),
 * `--long=value`, and `--` to end options.
 */
export interface Parsed {
  /** Flag → value ('' for boolean flags). Later occurrences win; `multi` keeps all. */
  flags: Map<string, string>;
  multi: Map<string, string[]>;
  positional: string[];
}

export interface OptSpec {
  /** Short flags that take a value, e.g. 'nABCe'. */
  shortWithValue?: string | undefined;
  /** Short flags whose value is optional and must be attached (`-i.bak`). */
  shortOptionalValue?: string | undefined;
  /** Long options that take a separate value when not given as `--x=v`. */
  longWithValue?: readonly string[] | undefined;
  /** Treat `-NUM` as this flag with value NUM (head/tail/grep context). */
  numericAs?: string | undefined;
}

export function getopt(args: readonly string[], spec: OptSpec = {}): Parsed {
  const flags = new Map<string, string>();
  const multi = new Map<string, string[]>();
  const positional: string[] = [];
  const set = (k: string, v: string): void => {
    flags.set(k, v);
    multi.set(k, [...(multi.get(k) ?? []), v]);
  };
  const withValue = spec.shortWithValue ?? '';
  const optional = spec.shortOptionalValue ?? '';
  let i = 0;
  while (i < args.length) {
    const a = args[i] as string;
    if (a === '--') {
      positional.push(...args.slice(i + 1));
      break;
    }
    if (a.startsWith('--') && a.length > 2) {
      const eq = a.indexOf('=');
      if (eq > 0) set(a.slice(2, eq), a.slice(eq + 1));
      else if (spec.longWithValue?.includes(a.slice(2)) && i + 1 < args.length) {
        set(a.slice(2), args[i + 1] as string);
        i++;
      } else set(a.slice(2), '');
      i++;
      continue;
    }
    if (spec.numericAs && /^-\d+$/.test(a)) {
      set(spec.numericAs, a.slice(1));
      i++;
      continue;
    }
    if (a.startsWith('-') && a.length > 1) {
      for (let k = 1; k < a.length; k++) {
        const c = a[k] as string;
        if (withValue.includes(c)) {
          const rest = a.slice(k + 1);
          if (rest.length) set(c, rest);
          else if (i + 1 < args.length) {
            set(c, args[i + 1] as string);
            i++;
          } else set(c, '');
          break;
        }
        if (optional.includes(c)) {
          set(c, a.slice(k + 1));
          break;
        }
        set(c, '');
      }
      i++;
      continue;
    }
    positional.push(a);
    i++;
  }
  return { flags, multi, positional };
}
