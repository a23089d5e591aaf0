import {existsSync, readdirSync, readFileSync} from 'node:fs'
import {dirname, join, resolve} from 'node:path'
import ts from 'typescript'

/**
 * What a source file imports, in every form (static, type-only, re-exported, import() and import
 * types, read by TypeScript without type-checking): the .ts files it names, and the packages.
 */
export function importsOf(file: string): {files: string[]; packages: string[]} {
  const {importedFiles} = ts.preProcessFile(readFileSync(file, 'utf8'), true, true)
  const specifiers = importedFiles.map(({fileName}) => fileName)
  const files = specifiers
    .filter((specifier) => specifier.startsWith('.'))
    .map((specifier) => resolveSpecifier(dirname(file), specifier))
    .filter((target): target is string => target !== undefined)
  return {files: [...new Set(files)], packages: specifiers.filter((specifier) => !specifier.startsWith('.'))}
}

/** Each .ts file of `root` and the files it imports. */
export function importGraph(root: string): Map<string, string[]> {
  const files = readdirSync(root, {recursive: true, encoding: 'utf8'})
    .filter((name) => name.endsWith('.ts') && !name.endsWith('.d.ts'))
    .map((name) => join(root, name))
  return new Map(files.map((file) => [file, importsOf(file).files]))
}

/** `./x.js` as the .ts file (or folder index) it names, as TypeScript's NodeNext resolution reads it. */
function resolveSpecifier(from: string, specifier: string): string | undefined {
  const base = resolve(from, specifier.replace(/\.js$/, ''))
  return [`${base}.ts`, join(base, 'index.ts')].find((candidate) => existsSync(candidate))
}
