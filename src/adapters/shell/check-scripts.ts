/** Reproduction and test scripts agents write and run (`reproduce_issue.py`, `test_fix.py`). */
const SCRIPT =
  /^(?:reproduce|reproduction|repro)[\w.-]*\.(?:py|sh)$|^test_[\w.-]*\.(?:py|sh)$|^[\w.-]*_test\.py$|^tests?\.py$/;

/** A file name (no directory) of such a script. */
export const isCheckScript = (fileName: string): boolean => SCRIPT.test(fileName);

/** The last path component. */
export const baseName = (p: string): string => p.slice(p.lastIndexOf('/') + 1);
