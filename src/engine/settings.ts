/**
 * Statements every new database runs before anything else. Any extension LOAD or autoload whose
 * download fails hangs the process forever (measured: even against a closed local port), so
 * autoloading is switched off first; extensions are loaded only after a bounded availability
 * check (see retrieval).
 */
export const HANG_SAFE_SETTINGS: readonly string[] = [
  'SET autoload_known_extensions = false',
  'SET autoinstall_known_extensions = false',
];
