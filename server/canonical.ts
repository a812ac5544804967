/** JSON with object keys sorted at every level: one question, one text, however a client ordered its JSON. */
export function canonicalJsonOf(v: unknown): string {
  if (Array.isArray(v)) return "[" + v.map(canonicalJsonOf).join(",") + "]";
  if (v && typeof v === "object") {
    const o = v as Record<string, unknown>;
    return (
      "{" +
      Object.keys(o)
        .sort()
        .filter((k) => o[k] !== undefined)
        .map((k) => JSON.stringify(k) + ":" + canonicalJsonOf(o[k]))
        .join(",") +
      "}"
    );
  }
  return JSON.stringify(v) ?? "null";
}
