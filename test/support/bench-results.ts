/**
 * Figures in one place (issue 43, item 5; here in test/support/ because its
 * unit test may not import bench/): every run of `npm run bench`
 * (or of a subset, BENCH_ONLY=…) merges its figures into bench/results.json
 * — the groups a module measured replace that module's earlier figures, the
 * others stay with the date, machine and load of the run that measured them
 * — and rewrites its section of docs/performance.md (between the BEGIN and
 * END markers; the hand-written text around it stays): the issue's table,
 * each figure against its target with the run it comes from, then every figure.
 */
import { existsSync, readFileSync, writeFileSync } from "node:fs";
/** A figure of the bench (bench/lib.ts uses this one; test/ does not import bench/). */
export interface Figure {
  /** Benchmark group (issue 8's numbering). */
  group: string;
  figure: string;
  value: number | string;
  unit: string;
  baseline?: number | string;
  /** value / baseline. */
  ratio?: number;
  /** What the issue asks for, in words ("= minimum", "≤ 1.5", …); absent: informational. */
  target?: string;
  /** null = informational. */
  pass?: boolean | null;
  note?: string;
}

export interface RunMeta {
  started: string;
  node: string;
  cpus: number;
  cpuModel?: string;
  memoryGb: number;
  loadAverage: number[];
  [k: string]: unknown;
}

/** A figure as kept: with the module and the run (its start) that measured it. */
export type KeptFigure = Figure & { module?: string; run?: string };

export interface Results {
  meta: RunMeta & { runs?: Record<string, RunMeta & { modules: string[] }> };
  figures: KeptFigure[];
}

/** Merge a run's figures (`byModule`) into `old`: a module's groups are replaced, everything else kept. */
export function mergeResults(old: Results | null, meta: RunMeta, byModule: Map<string, Figure[]>): Results {
  const replaced = new Set<string>();
  for (const [id, figs] of byModule) {
    replaced.add(`module:${id}`);
    for (const f of figs) replaced.add(`group:${f.group}`);
  }
  const kept = (old?.figures ?? []).filter(
    (f) => !replaced.has(`group:${f.group}`) && !(f.module && replaced.has(`module:${f.module}`)),
  );
  const fresh = [...byModule].flatMap(([id, figs]) => figs.map((f) => ({ ...f, module: id, run: meta.started })));
  const runs = { ...(old?.meta.runs ?? {}), [meta.started]: { ...meta, modules: [...byModule.keys()] } };
  // Runs no kept figure comes from any more are dropped.
  const used = new Set([...kept, ...fresh].map((f) => f.run));
  for (const k of Object.keys(runs)) if (!used.has(k)) delete runs[k];
  return { meta: { ...meta, runs }, figures: [...kept, ...fresh] };
}

export function readResults(file: URL): Results | null {
  if (!existsSync(file)) return null;
  try {
    return JSON.parse(readFileSync(file, "utf8")) as Results;
  } catch {
    return null;
  }
}

/** The issue's table (issue 43): which figure answers each line (its group and the start of its name). */
export const ISSUE_43: { line: string; target: string; group: RegExp; figure: RegExp }[] = [
  {
    line: "1,000 rows, default ceiling 32 vs replay at 32",
    target: "≤ 1.5",
    group: /^1 enrich/,
    figure: /^wall time \(median\), ceiling 32|default ceiling/,
  },
  {
    line: "1,000 rows, --parallel 1000 vs unlimited replay",
    target: "≤ 1.5",
    group: /^1 enrich/,
    figure: /ceiling 1,000,? vs the unlimited replay/,
  },
  {
    line: "1,000 rows, --parallel 1000 vs a replay under the same credits in flight (what keeps a kill -9 within 8 %)",
    target: "≤ 1.5",
    group: /^1 enrich/,
    figure: /ceiling 1,000 vs a replay under the same credits in flight/,
  },
  { line: "client CPU per run, CLI vs replay", target: "≤ 1.2", group: /^1 enrich/, figure: /^client CPU per run/ },
  {
    line: "first (cold) run of the process",
    target: "≤ warm + 1 s",
    group: /^cold start/,
    figure: /^enrich .*first run vs warm/,
  },
  {
    line: "first (cold) run of the process, other list (1,000 rows, the bench's process)",
    target: "≤ warm + 1 s",
    group: /^1 enrich/,
    figure: /^first \(cold\) run of the process, other list/,
  },
  { line: "kill -9 extra credits, default", target: "≤ 5 %", group: /^4b kill/, figure: /\(default\)/ },
  { line: "kill -9 extra credits, --parallel 1000", target: "≤ 8 %", group: /^4b kill/, figure: /parallel 1000/ },
  { line: "unknown cap: wall time vs bound", target: "≤ 1.3", group: /^4a unknown cap/, figure: /^wall time/ },
  { line: "unknown cap: 429 answers", target: "< 2 %", group: /^4a unknown cap/, figure: /^429/ },
  { line: "team server, cached answer p50 vs direct", target: "≤ 2 ms", group: /^server$/, figure: /^cached answer/ },
  { line: "team server, 2,000 concurrent cached (PGlite): p50", target: "≤ 0.5 s", group: /pglite/, figure: /p50/ },
  { line: "team server, 2,000 concurrent cached (PGlite): p99", target: "≤ 1.5 s", group: /pglite/, figure: /p99/ },
  {
    line: "team server, 2,000 concurrent cached (PostgreSQL): p50",
    target: "≤ 0.5 s",
    group: /postgres/,
    figure: /p50/,
  },
  {
    line: "team server, 2,000 concurrent cached (PostgreSQL): p99",
    target: "≤ 1.5 s",
    group: /postgres/,
    figure: /p99/,
  },
  {
    line: "team server under load: database round trips per request",
    target: "",
    group: /under load/,
    figure: /round trips/,
  },
];

const cell = (v: unknown) => (v === undefined || v === null ? "" : String(v).replace(/\|/g, "\\|"));
const verdict = (f: Figure) => (f.pass === true ? "PASS" : f.pass === false ? "FAIL" : "info");

function runLine(r: RunMeta): string {
  return `${r.started}: Node ${r.node}, ${r.cpus} × ${r.cpuModel ?? "CPU"}, ${r.memoryGb} GB, load average ${r.loadAverage.join(" / ")}`;
}

export const BEGIN = "<!-- test/support/bench-results.ts: generated from bench/results.json, do not edit by hand -->";
export const END = "<!-- end of test/support/bench-results.ts -->";

/** The generated section of docs/performance.md from the merged results. */
export function performanceDoc(res: Results): string {
  const runs = res.meta.runs ?? {};
  const runNo = new Map(Object.keys(runs).map((k, i) => [k, i + 1]));
  const lines = [
    BEGIN,
    "",
    "## Latest figures (written by `npm run bench`)",
    "",
    "Every figure of `bench/results.json`. A run of a subset (`BENCH_ONLY=…`) replaces its modules' figures and",
    "keeps the others, each with the run (machine and load) that measured it; on 2 shared cores the load moves",
    "wall times several-fold, the ratios against baselines of the same run much less.",
    "",
    "### Runs",
    "",
    ...Object.entries(runs).map(([k, r]) => `${runNo.get(k)}. ${runLine(r)}; modules: ${r.modules.join(", ")}`),
    "",
    "### Issue 43's figures",
    "",
    "| figure | value | baseline | ratio | target | result | run |",
    "|---|---|---|---|---|---|---|",
  ];
  for (const row of ISSUE_43) {
    const f = res.figures.find((x) => row.group.test(x.group) && row.figure.test(x.figure));
    if (!f) lines.push(`| ${row.line} | not measured | | | ${row.target} | | |`);
    else
      lines.push(
        `| ${row.line} | ${cell(f.value)} ${f.unit} | ${cell(f.baseline)} | ${cell(f.ratio)} | ${cell(f.target ?? row.target)} | ${verdict(f)} | ${cell(f.run ? runNo.get(f.run) : "before issue 43")} |`,
      );
  }
  lines.push("", "### Every figure", "", "| group | figure | value | baseline | ratio | target | result | run |");
  lines.push("|---|---|---|---|---|---|---|---|");
  for (const f of res.figures)
    lines.push(
      `| ${cell(f.group)} | ${cell(f.figure)} | ${cell(f.value)} ${f.unit} | ${cell(f.baseline)} | ${cell(f.ratio)} | ${cell(f.target)} | ${verdict(f)} | ${cell(f.run ? runNo.get(f.run) : "before issue 43")} |`,
    );
  lines.push("", END);
  return lines.join("\n") + "\n";
}

/** `doc` with its generated section replaced by `section` (appended when it has none). */
export function spliceSection(doc: string, section: string): string {
  const a = doc.indexOf(BEGIN);
  const b = doc.indexOf(END);
  if (a < 0 || b < a) return doc.trimEnd() + "\n\n" + section;
  return doc.slice(0, a) + section + doc.slice(b + END.length).replace(/^\n/, "");
}

/** Merge a run into bench/results.json and rewrite docs/performance.md. */
export function writeResults(meta: RunMeta, byModule: Map<string, Figure[]>): Results {
  const file = new URL("../../bench/results.json", import.meta.url);
  const res = mergeResults(readResults(file), meta, byModule);
  writeFileSync(file, JSON.stringify(res, null, 2) + "\n");
  const doc = new URL("../../docs/performance.md", import.meta.url);
  writeFileSync(
    doc,
    spliceSection(existsSync(doc) ? readFileSync(doc, "utf8") : "# Performance\n", performanceDoc(res)),
  );
  return res;
}
