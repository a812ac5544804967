/**
 * What the Enrich panel keeps between renders, and the run's settings read
 * from it: one place for the state every section of the panel reads and writes.
 */
import type {
  EnrichConfig,
  EnrichPreviewView,
  EnrichProgressView,
  FieldGroupView,
  ColumnRole,
  RerunMode,
  SelectionView,
} from "../../../app/index.ts";
import type { PanelState } from "../../panel.ts";
import type { RefreshSectionState } from "./refresh/draft.ts";

export interface EnrichState extends PanelState {
  selection?: SelectionView;
  mapping?: Record<ColumnRole, number | null>;
  groups?: FieldGroupView[] | null;
  fields?: Set<string>;
  mode?: "batch" | "free";
  rerun?: "all" | "newOrFailed" | "olderThan";
  days?: string;
  preview?: EnrichPreviewView;
  progress?: EnrichProgressView;
  running?: boolean;
  pauseRequested?: boolean;
  picks?: Record<number, string>;
  /** The document's unfinished run from an earlier sidebar (undefined: not asked yet; null: none). */
  unfinished?: EnrichProgressView | null;
  /** The "Keep current" section's own state (refresh/index.ts). */
  refresh?: RefreshSectionState;
}

/** The run's settings as the app's enrich methods take them; only called once a table is read and its columns known. */
export function config(s: EnrichState): EnrichConfig {
  const sel = s.selection!;
  const rerun: RerunMode =
    s.rerun === "olderThan"
      ? { kind: "olderThan", days: Math.max(1, Number(s.days) || 30) }
      : { kind: s.rerun ?? "all" };
  return {
    sheet: sel.sheet,
    headerRow: sel.row,
    col: sel.col,
    rows: Math.max(0, sel.rows - 1),
    cols: sel.cols,
    mapping: s.mapping!,
    fields: [...(s.fields ?? [])],
    mode: s.mode ?? "batch",
    rerun,
  };
}
