/**
 * Element `i` of a list the emulator built itself (the companies by index,
 * the people index, the generator's tables), where `i` comes from the same
 * data. A miss is a bug in the emulator, not bad input: it throws (a 500)
 * instead of answering with a made-up value.
 */
export function nth<T>(list: ArrayLike<T>, i: number): T {
  const v = list[i];
  if (v === undefined) throw new Error(`emulator: index ${i} outside a list of ${list.length}`);
  return v;
}
