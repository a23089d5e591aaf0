import {readMountInfo, unescapeMountField} from '../src/lib/overlay-names.js'

/** The mount points of this machine's mount table, innermost last, read as gw reads it (none on a system other than Linux). */
export function mountPoints(): string[] {
  return (readMountInfo() ?? '')
    .split('\n')
    .filter(Boolean)
    .map((line) => unescapeMountField(line.split(' ')[4]!))
}
