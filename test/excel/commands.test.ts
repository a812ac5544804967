import { describe, expect, it } from "vitest";
import { COMMAND_PANELS, registerCommands } from "../../excel-addin/commands/commands.ts";
import { onPanelRequest, requestPanel } from "../../excel-addin/taskpane/bridge.ts";

describe("ribbon commands", () => {
  it("each button opens the task pane on its panel and completes the event", async () => {
    const handlers = new Map<string, (e: { completed(): void }) => Promise<void>>();
    let shown = 0;
    const office = { actions: { associate: (n: string, f: never) => handlers.set(n, f) }, addin: { showAsTaskpane: async () => void shown++ } };
    registerCommands(office as unknown as typeof Office);
    expect([...handlers.keys()]).toEqual(Object.keys(COMMAND_PANELS));
    const seen: string[] = [];
    onPanelRequest((r) => seen.push(r.panel));
    let completed = 0;
    await handlers.get("openSimilar")!({ completed: () => void completed++ });
    expect(seen).toEqual(["similar"]);
    expect(shown).toBe(1);
    expect(completed).toBe(1);
  });

  it("a request before the UI mounted is kept for it", () => {
    const scope: Record<string, unknown> = {};
    requestPanel("monitor", scope);
    expect(onPanelRequest(() => {}, scope)).toEqual({ panel: "monitor" });
    expect(onPanelRequest(() => {}, scope)).toBeUndefined();
  });
});
