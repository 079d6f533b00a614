/**
 * The fields of a value that came over the wire, or none when it is not an object (null, a string,
 * …): for the lenient readers that default every field a server may omit or get wrong.
 */
export function fieldsOf<T extends object = Record<string, unknown>>(v: unknown): Partial<T> {
  return (typeof v === 'object' && v !== null ? v : {}) as Partial<T>;
}
