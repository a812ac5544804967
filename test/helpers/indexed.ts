/**
 * Indexed reads whose presence the test's own setup makes certain.
 *
 * Under `noUncheckedIndexedAccess`, `rows[0]` is `Row | undefined`. These return
 * the value or throw an error naming the index or key, so a test whose setup went
 * wrong fails at the line that read past the end, with a message, instead of on
 * an `undefined` further on. (A `rows[0]!` tells the compiler the same, but the
 * linter reports it as an unnecessary assertion wherever the flag is off; these
 * read the same either way.)
 */

/** `list[index]`, which must be there. */
export function nth<T>(list: ArrayLike<T>, index: number): T {
  const value = list[index];
  if (value === undefined) throw new Error(`no element at index ${index} (length ${list.length})`);
  return value;
}

/** `record[key]`, which must be there. */
export function valueAt<T>(record: { readonly [key: string]: T }, key: string): T {
  const value = record[key];
  if (value === undefined)
    throw new Error(`no value under key "${key}" (keys: ${Object.keys(record).join(", ") || "none"})`);
  return value;
}

/** A tuple of `N` elements of `T`, for `const [a, b] = take(list, 2)`. */
type Tuple<T, N extends number, Acc extends T[] = []> = Acc["length"] extends N ? Acc : Tuple<T, N, [...Acc, T]>;

/** The first `count` elements of `list` as a tuple (to destructure), which must all be there. */
export function take<T, N extends number>(list: readonly T[], count: N): Tuple<T, N> {
  if (list.length < count) throw new Error(`expected at least ${count} elements, got ${list.length}`);
  return list.slice(0, count) as Tuple<T, N>;
}

/** `grid[row][col]` (a sheet's values, a function's answer), which must be there. */
export function cellAt<T>(grid: ArrayLike<ArrayLike<T>>, row: number, col: number): T {
  return nth(nth(grid, row), col);
}
