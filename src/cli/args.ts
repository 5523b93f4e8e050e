/** Argument parsing shared by the commands: `node:util` parseArgs, with its errors as usage errors. */
import { type ParseArgsConfig, parseArgs } from 'node:util';

/** Bad arguments: the command prints its usage and exits 2. */
export class UsageError extends Error {}

/** Bad input (a file that is not a transcript, a ledger that cannot be opened): exit 1. */
export class InputError extends Error {}

type Options = NonNullable<ParseArgsConfig['options']>;

export interface ParsedArgs {
  values: Record<string, string | boolean | undefined>;
  positionals: string[];
}

/** Parses `args`; positional arguments are refused unless the command takes them (`positionals`). */
export function parse(args: readonly string[], options: Options, positionals = false): ParsedArgs {
  let parsed: ParsedArgs;
  try {
    parsed = parseArgs({
      args: [...args],
      options: { ...options, help: { type: 'boolean', short: 'h' } },
      allowPositionals: true,
      strict: true,
    });
  } catch (e) {
    throw new UsageError((e as Error).message);
  }
  if (!positionals && parsed.positionals.length > 0)
    throw new UsageError(`unexpected argument ${JSON.stringify(parsed.positionals[0])}`);
  return parsed;
}

/** A non-negative (or, with `min: 1`, positive) safe integer option, or `fallback` when absent. */
export function intOption(value: unknown, name: string, min: number): number | undefined {
  if (value === undefined) return undefined;
  const text = String(value);
  if (!/^\d+$/.test(text) || !Number.isSafeInteger(Number(text)) || Number(text) < min) {
    throw new UsageError(`--${name}: ${JSON.stringify(text)} is not an integer >= ${min}`);
  }
  return Number(text);
}

/** A comma-separated list option (`a,b`), or undefined when absent. */
export function listOption(value: unknown, name: string): string[] | undefined {
  if (value === undefined) return undefined;
  const items = String(value)
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  if (items.length === 0) throw new UsageError(`--${name} needs at least one value`);
  return items;
}

export function requiredString(value: unknown, name: string): string {
  if (typeof value !== 'string' || value === '') throw new UsageError(`--${name} is required`);
  return value;
}
