/**
 * The core's streamed job (shared/enrich/job-stream.ts), handed its I/O as
 * effects: an in-memory table (the table protocol, shared/core/table-protocol.ts,
 * as cli/csv-stream.ts answers it for a CSV file) and a store, against the
 * in-process emulator (runSync: the job is sans-IO). Its decisions: resume,
 * start over or start afresh; the resolve phase kept in the store and read
 * back; the checkpoint moving only after the table kept a chunk; the output
 * replacing the finished one at the end; and the CLI's store as files.
 */
import { describe, expect, it } from "vitest";
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { runAsync, runSync } from "../../shared/core/drivers.ts";
import type { Cell, TableFacts, TableLine, TableRequest } from "../../shared/core/index.ts";
import { EnrichStore } from "../../cli/enrich-files.ts";
import { Pacer } from "../../shared/api/pacing.ts";
import type { OpContext } from "../../shared/operations/context.ts";
import { coreDeps, detectColumns, selectFields, StreamJob, STREAM_RESOLVED_PREFIX } from "../../shared/enrich/index.ts";
import { readPrevious, type StreamSpec } from "../../shared/enrich/index.ts";
import { STREAM_CHECKPOINT_KEY } from "../../shared/enrich/index.ts";
import { createEmulator } from "../../emulator/index.ts";
import { emulatorDrivers } from "../helpers/emulator-driver.ts";

const clock = Date.UTC(2025, 5, 1, 9);
const emu = createEmulator({ companies: 400, seed: 5, now: () => clock, startDate: "2025-06-01" });
const names = emu.world.companies
  .filter((c) => emu.companies.findByName(c.name).length === 1)
  .slice(0, 30)
  .map((c) => c.name);
const header = ["Firma"];
const spec: StreamSpec = {
  header,
  mapping: detectColumns(header).mapping,
  fieldIds: ["name", "phone"],
  fields: selectFields(["name", "phone"]),
  mode: "batch",
  rerun: "new-or-failed",
  lang: "en",
};
const width = spec.fields.length;

/**
 * The table in memory: the input's rows read 10 at a time; the unfinished
 * output's mark is its row count (header included). `killAt`: the n-th
 * append throws, as a kill before the rows were kept.
 */
function memoryTable(input: string[][], content = "c1") {
  const t = {
    input,
    content,
    unfinished: null as Cell[][] | null,
    finished: null as Cell[][] | null,
    paired: [] as string[],
    cuts: [] as number[],
    appends: 0,
    killAt: Infinity,
    request(r: TableRequest): unknown {
      switch (r.op) {
        case "open":
          t.paired = [];
          return {
            input: "/in.csv",
            content: t.content,
            encoding: "utf-8",
            unfinishedSize: t.unfinished?.length ?? null,
            unfinishedUsable: !!t.unfinished,
            finishedUsable: !!t.finished,
          } satisfies TableFacts;
        case "cut":
          t.cuts.push(r.size);
          t.unfinished!.length = r.size;
          return;
        case "pair":
          t.paired = r.sources;
          return;
        case "rows":
          return t.input.slice(r.from, r.from + 10).map((row, k): TableLine => {
            const i = r.from + k;
            // Paired by position here (the CLI pairs by key): enough for these tests' unchanged rows.
            const earlier = t.paired.includes("finished") ? (t.finished?.[i + 1]?.slice(1) ?? null) : null;
            return { index: i, row, earlier };
          });
        case "written":
          return t
            .unfinished!.slice(1 + r.from)
            .map((cells, k) => ({ row: t.input[r.from + k]!, cells: cells.slice(1) }));
        case "begin":
          t.unfinished = [r.header];
          return 1;
        case "append":
          if (++t.appends === t.killAt) throw new Error("killed");
          t.unfinished!.push(...r.rows);
          return t.unfinished!.length;
        case "settled":
          return;
        case "finish":
          t.finished = t.unfinished;
          t.unfinished = null;
          return;
      }
    },
  };
  return t;
}

function world() {
  const d = emulatorDrivers(emu, { now: () => clock });
  const ctx: OpContext = {
    client: {
      apiKey: emu.createKey(10_000),
      baseUrl: "http://emulator.test",
      language: "en",
      now: () => clock,
      random: () => 0.5,
      pacer: new Pacer(),
    },
    cacheTtlSeconds: 0,
    maxBatch: 10,
    scope: "stream",
  };
  const resolves = () => d.requests.filter((r) => r.url.includes("/resolve")).length;
  const profiles = () => d.requests.filter((r) => /\/v2\/companies\/DE/.test(r.url)).length;
  const parts = () => [...d.stores.store.keys()].filter((k) => k.startsWith(STREAM_RESOLVED_PREFIX)).length;
  const driver = (t: ReturnType<typeof memoryTable>) => ({ ...d.sync, table: (r: TableRequest) => t.request(r) });
  return { d, ctx, resolves, profiles, parts, driver };
}

const rowsOf = (from: number, to: number) => names.slice(from, to).map((n) => [n]);

/** A run killed while it appended its second chunk: the first chunk of 10 rows is kept. */
function killedRun(w: ReturnType<typeof world>, t = memoryTable(rowsOf(0, 30))) {
  const job = new StreamJob(spec);
  const plan = runSync(job.plan(clock), w.driver(t));
  expect(plan).toMatchObject({ start: "fresh", rowsDone: 0, inputRows: 30, estimate: { rows: 30 } });
  t.killAt = 2;
  expect(() => runSync(job.run(coreDeps, w.ctx, 32), w.driver(t))).toThrow(/killed/);
  expect(t.unfinished).toHaveLength(11);
  expect(t.unfinished![1]?.[0]).toBe(names[0]);
  expect(t.unfinished![1]?.[1]).toMatch(/matched/i);
  t.killAt = Infinity;
  return t;
}

describe("the streamed job's decisions", () => {
  it("resolves ahead in full batch calls, each group kept in the store; a resume goes on after the last kept chunk and buys nothing again", () => {
    const w = world();
    const t = killedRun(w);
    expect(w.resolves()).toBe(3); // 30 names, batches of 10
    expect(w.parts()).toBeGreaterThan(0);
    // The checkpoint moved after the first chunk only: the second was never kept.
    expect(JSON.parse(w.d.stores.store.get(STREAM_CHECKPOINT_KEY)!)).toMatchObject({ rowsDone: 10, bytesDone: 11 });
    const paid = w.profiles();
    t.unfinished!.push(["half a row"]); // a kill can leave more than the checkpoint says: cut back
    const job = new StreamJob(spec);
    const plan = runSync(job.plan(clock), w.driver(t));
    expect(plan).toMatchObject({ start: "resume", rowsDone: 10, inputRows: 30, estimate: { rows: 20 } });
    expect(t.cuts).toEqual([11]);
    expect(job.memo.keys.size).toBe(30);
    const counts = runSync(job.run(coreDeps, w.ctx, 32), w.driver(t));
    expect(w.resolves()).toBe(3);
    // The first chunk's companies were taken back from the rows written: only the other 20 are bought
    // (the CLI's answer journal would replay the second chunk's too; this table has none).
    expect(paid).toBe(20);
    expect(w.profiles() - paid).toBe(20);
    expect(counts).toMatchObject({ rows: 30, matched: 30, other: 0 });
    // Every input row has exactly one output row, on its own row; the output replaced the finished one.
    expect(t.unfinished).toBeNull();
    expect(t.finished!.slice(1).map((r) => r[0])).toEqual(names);
    expect(t.finished!.slice(1).every((r) => readPrevious(r.slice(1), width)?.outcome === "matched")).toBe(true);
    // Done: the checkpoint and the resolutions go.
    expect(w.d.stores.store.has(STREAM_CHECKPOINT_KEY)).toBe(false);
    expect(w.parts()).toBe(0);
  });

  it("the same job on changed content starts over, keeping its resolutions and pairing its rows written; another job starts afresh and drops them only when it begins", () => {
    const w = world();
    const t = killedRun(w);
    t.content = "c2";
    const restart = new StreamJob(spec);
    expect(runSync(restart.plan(clock), w.driver(t))).toMatchObject({ start: "restart", rowsDone: 0 });
    expect(t.cuts).toEqual([11]);
    expect(t.paired).toEqual(["unfinished"]);
    expect(restart.memo.keys.size).toBe(30);

    // A partial output shorter than its checkpoint says is not this job's: afresh.
    t.unfinished!.length = 5;
    expect(runSync(new StreamJob(spec).plan(clock), w.driver(t))).toMatchObject({ start: "fresh" });
    // Other fields: another job. Nothing is dropped before it begins (the user may still say no).
    const other = new StreamJob({ ...spec, fieldIds: ["name"], fields: selectFields(["name"]) });
    t.unfinished!.length = 11;
    expect(runSync(other.plan(clock), w.driver(t))).toMatchObject({ start: "fresh" });
    expect(other.memo.keys.size).toBe(0);
    expect(w.parts()).toBeGreaterThan(0);
    runSync(other.run(coreDeps, w.ctx, 32), w.driver(t));
    expect(w.parts()).toBe(0);
    expect(t.finished).toHaveLength(31);
  });

  it("a rerun over its finished output reuses every row and spends nothing", () => {
    const w = world();
    const t = memoryTable(rowsOf(0, 30));
    runSync(planned(w, t).run(coreDeps, w.ctx, 32), w.driver(t));
    const sent = w.d.requests.length;
    const again = planned(w, t);
    expect(t.paired).toEqual(["finished"]);
    const counts = runSync(again.run(coreDeps, w.ctx, 32), w.driver(t));
    expect(w.d.requests.length).toBe(sent);
    expect(counts).toMatchObject({ rows: 30, matched: 30 });
  });
});

function planned(w: ReturnType<typeof world>, t: ReturnType<typeof memoryTable>) {
  const job = new StreamJob(spec);
  runSync(job.plan(clock), w.driver(t));
  return job;
}

describe("the store as files (cli/enrich-files.ts)", () => {
  it("keeps the checkpoint and the resolved names in their files, and reads a resolved file of an earlier version", async () => {
    const dir = mkdtempSync(join(tmpdir(), "cd-stream-"));
    const files = { checkpoint: join(dir, "o.checkpoint.json"), resolved: join(dir, "o.resolved.jsonl") };
    const w = world();
    const t = memoryTable(rowsOf(0, 30));
    const driver = (store: EnrichStore) => ({
      ...store.driver(w.d.async),
      table: async (r: TableRequest) => t.request(r),
    });
    const job = new StreamJob(spec);
    await runAsync(job.plan(clock), driver(new EnrichStore(files)));
    t.killAt = 1;
    await expect(runAsync(job.run(coreDeps, w.ctx, 32), driver(new EnrichStore(files)))).rejects.toThrow(/killed/);
    expect(JSON.parse(readFileSync(files.checkpoint, "utf8"))).toMatchObject({ v: 2, resolved: true, bytesDone: 1 });
    t.killAt = Infinity;
    // Read back by a new process: the resume knows every name.
    const again = new StreamJob(spec);
    expect(await runAsync(again.plan(clock), driver(new EnrichStore(files)))).toMatchObject({ start: "resume" });
    expect(again.memo.keys.size).toBe(30);
    // An earlier version wrote one [key, answer] a line: still read, so its resume pays no name again.
    const [key, answer] = [...again.memo.keys][0]!;
    writeFileSync(files.resolved, JSON.stringify([key, answer]) + "\n");
    const old = new StreamJob(spec);
    await runAsync(old.plan(clock), driver(new EnrichStore(files)));
    expect([...old.memo.keys]).toEqual([[key, answer]]);
  });
});
