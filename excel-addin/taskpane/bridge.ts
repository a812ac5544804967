/**
 * Ribbon commands and the task pane share one runtime (one page), so a
 * command tells the UI which panel to show through this in-page bridge:
 * a request made before the UI has mounted is kept and applied on mount.
 */
export type PanelRequest = { panel: string };

const KEY = "__companyDataPanelBridge";

interface Bridge {
  pending?: PanelRequest;
  listener?: (r: PanelRequest) => void;
}

function bridge(scope: Record<string, unknown> = globalThis as unknown as Record<string, unknown>): Bridge {
  // Separate bundles (commands.js, taskpane.js) meet on the page's global object.
  return ((scope[KEY] as Bridge | undefined) ??= (scope[KEY] = {} as Bridge) as Bridge);
}

export function requestPanel(panel: string, scope?: Record<string, unknown>): void {
  const b = bridge(scope);
  if (b.listener) b.listener({ panel });
  else b.pending = { panel };
}

/** The UI listens; returns the request that arrived before it did, if any. */
export function onPanelRequest(listener: (r: PanelRequest) => void, scope?: Record<string, unknown>): PanelRequest | undefined {
  const b = bridge(scope);
  b.listener = listener;
  const pending = b.pending;
  b.pending = undefined;
  return pending;
}
