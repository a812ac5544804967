/**
 * `list[index]`, which the harness's own generated data must have. Reading past
 * it is a defect in the benchmark or harness: it stops with an error naming what
 * was missing instead of publishing a figure computed from `undefined`.
 */
export function itemAt<T>(list: ArrayLike<T>, index: number, what: string): T {
  const value = list[index];
  if (value === undefined) throw new Error(`bench: no ${what} at index ${index} (of ${list.length})`);
  return value;
}
