/** How a repeated body is referenced when rendered (materialize counts its tokens up front). */
export const refText = (id: string): string => `[same content as ${id}]`;
