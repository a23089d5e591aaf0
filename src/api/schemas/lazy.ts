/**
 * A schema built when it is first used, not when its module loads. Building a zod schema runs
 * a good deal of code per field: all of gw's records and request bodies took a tenth of a
 * `gw purchase get`, which uses one record. The stand-in passes every use to the schema, built
 * on the first (zod keeps the stand-in where another schema holds this one: an array of
 * purchases builds Purchase when it first parses one).
 */
export function lazily<S extends object>(build: () => S): S {
  let built: S | undefined
  const schema = (): S => (built ??= build())
  return new Proxy({} as S, {
    get: (_, key) => Reflect.get(schema(), key),
    set: (_, key, value) => Reflect.set(schema(), key, value),
    has: (_, key) => Reflect.has(schema(), key),
    ownKeys: () => Reflect.ownKeys(schema()),
    getOwnPropertyDescriptor: (_, key) => {
      const descriptor = Reflect.getOwnPropertyDescriptor(schema(), key)
      // A property the stand-in does not have itself cannot be reported as fixed.
      return descriptor && {...descriptor, configurable: true}
    },
    getPrototypeOf: () => Reflect.getPrototypeOf(schema()),
  })
}
