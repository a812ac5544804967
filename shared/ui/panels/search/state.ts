/** The Search panel's state, shared by its parts: what the user typed, what was found, what "insert all" and the saved searches show. */
import type {
  CostView,
  SavedSearch,
  SearchAllPriceView,
  SearchFilterInput,
  SearchInput,
  SearchOutput,
} from "../../../app/index.ts";
import type { PanelState } from "../../panel.ts";

export interface SearchState extends PanelState {
  query?: string;
  place?: string;
  radiusKm?: string;
  size?: string;
  filters?: SearchFilterInput;
  cost?: CostView | null;
  result?: SearchOutput;
  /** What the shown results were searched with: "insert all" pages through exactly that. */
  searched?: SearchInput;
  /** The price of inserting all results (null while it loads). */
  allPrice?: SearchAllPriceView | null;
  excludeOn?: boolean;
  excludeSheet?: string;
  /** The document's saved searches (null while they load). */
  saved?: SavedSearch[] | null;
  saveName?: string;
  selected?: Set<string>;
}

/** A new search (from the form or a saved one): the previous results are not its answer, whatever comes of it. */
export function clearResults(s: SearchState): void {
  s.result = undefined;
  s.searched = undefined;
  s.allPrice = undefined;
  s.selected = new Set();
}
