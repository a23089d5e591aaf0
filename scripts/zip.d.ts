/** scripts/zip.js: a zip archive of a few files. */
export function writeZip(file: string, entries: {name: string; path: string}[]): void
export function readZipEntry(file: string, name: string): Buffer | undefined
