import { intList, intLiteral } from './literals.js';

/** Closes node versions at an epoch: the commit's UPDATE for older versions it supersedes. */
export function closeVersionsSql(epoch: number, vkeys: readonly number[]): string {
  return `UPDATE nodes SET valid_to = ${intLiteral(epoch)} WHERE vkey IN ${intList(vkeys)}`;
}
