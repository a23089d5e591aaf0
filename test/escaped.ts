/**
 * Text as a regular expression matches it literally, for a pattern built around it: a Windows
 * path's backslashes, a folder's dots or a host's brackets are no pattern of their own.
 */
export const escaped = (text: string): string => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')
