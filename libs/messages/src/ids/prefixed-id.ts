import { UUID_SOURCE } from './uuid';

/** An id written as a fixed prefix and a UUID (`cmp_<uuid>`): its rule, test, parse and format in one place. */
export interface PrefixedId {
  readonly prefix: string;
  /** The whole id. Lower-case only: these ids are stored as text, so only the form written names a row. */
  readonly pattern: RegExp;
  is(value: unknown): value is string;
  /** The UUID part of a well-formed id, else null. */
  parse(value: unknown): string | null;
  format(uuid: string): string;
}

export function prefixedId(prefix: string): PrefixedId {
  // The prefix goes into a RegExp as is, so only letters and the underscore.
  if (!/^[a-z]+_$/.test(prefix))
    throw new Error(`An id prefix is lower-case letters and "_", not "${prefix}"`);
  const pattern = new RegExp(`^${prefix}${UUID_SOURCE}$`);
  const is = (value: unknown): value is string => typeof value === 'string' && pattern.test(value);
  return {
    prefix,
    pattern,
    is,
    parse: (value) => (is(value) ? value.slice(prefix.length) : null),
    format: (uuid) => `${prefix}${uuid}`,
  };
}
