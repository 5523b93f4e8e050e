/** `less` and `more` in a pipeline: they pass lines through as `cat` does. */
import { catFilter } from './cat.js';
import type { ShellTool } from './shell-tool.js';

export const pager: ShellTool = {
  names: ['less', 'more'],
  filter: (prev, args, _ctx, lose) => catFilter(prev, args, lose),
};
