/**
 * readSelection, detectColumns, enrichFields: what the Enrich panel shows
 * before a run is set up (the selected table and an earlier run's output
 * beside it, the columns recognised by their headers, the fields to choose
 * with their price per company).
 */
import { sheet, invalid, type Operation, type SelectionInfo } from "../core/index.ts";
import { companyIdsIn } from "../api/index.ts";
import { DEFAULT_FIELDS, FIELD_GROUPS, FIELDS, GROUP_COST, GROUP_LABEL } from "../enrich/index.ts";
import { detectColumns, findOutputBlock } from "../enrich/index.ts";
import { mappingView } from "./enrich-config.ts";
import { list, record } from "./input.ts";
import type { AppDeps, ColumnsView, FieldGroupView, SelectionView } from "./protocol.ts";

export function* readSelectionMethod(_deps: AppDeps, _input: unknown): Operation<SelectionView> {
  const sel = yield* sheet<SelectionInfo>({ op: "selection" });
  const values = sel.values ?? [];
  const ids = new Set<string>();
  for (const row of values)
    for (const v of row) for (const m of companyIdsIn(String(v ?? "").toUpperCase())) if (ids.size < 20) ids.add(m);
  // The add-on's own output of an earlier run is not input: the table is what stands left of it.
  const found = findOutputBlock(values[0] ?? []);
  const width = values.reduce((w, r) => Math.max(w, r.length), 0);
  const cols = found ? found.start : width;
  return {
    sheet: sel.sheet,
    row: sel.row,
    col: sel.col,
    rows: values.length,
    cols,
    headers: (values[0] ?? []).slice(0, cols).map((v) => String(v ?? "")),
    sample: values.slice(1, 6).map((r) => r.slice(0, cols)),
    ids: [...ids],
    output: found ? { col: sel.col + found.start, fields: found.fields } : null,
  };
}

export function* detectColumnsMethod(_deps: AppDeps, input: unknown): Operation<ColumnsView> {
  const o = record(input);
  const headers = list(
    o,
    "headers",
    (v, f) => {
      if (v !== null && typeof v !== "string" && typeof v !== "number" && typeof v !== "boolean")
        throw invalid(f, { de: "erwartet einen Zellwert", en: "expected a cell value" });
      return v;
    },
    { max: 500 },
  );
  const d = detectColumns(headers);
  return { mapping: mappingView(d.mapping), headers: d.headers };
}

export function* enrichFieldsMethod(
  _deps: AppDeps,
  _input: unknown,
): Operation<{ groups: FieldGroupView[]; defaults: string[] }> {
  return { groups: fieldGroups(), defaults: [...DEFAULT_FIELDS] };
}

/** The fields by group, each group with its price per company (the preview shows them too). */
export function fieldGroups(): FieldGroupView[] {
  return FIELD_GROUPS.map((g) => ({
    group: g,
    label: GROUP_LABEL[g],
    creditsPerCompany: GROUP_COST[g],
    fields: FIELDS.filter((f) => f.group === g).map((f) => ({ id: f.id, header: f.header })),
  }));
}
