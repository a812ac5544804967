/**
 * Offline checks of the Office add-in manifest (the official validator
 * sends the file to an online service; the schema check is schema.ts), the
 * production rewrite and the dev manifest.
 */
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { OfficeAddinManifest, type ManifestInfo } from "office-addin-manifest";
import { allElements, localName, parseXml, type XmlElement } from "./xml.ts";

export const DEV_HOST_URL = "https://localhost:3000";

/**
 * The dev manifest's own Id and name: Office identifies an add-in by its
 * <Id>, so a sideloaded dev build with the production Id would replace (or
 * be confused with) the installed add-in, and its name tells them apart in
 * the ribbon and the add-in list.
 */
export const DEV_ID = "5b0d3f9e-8f7c-4a51-9a0e-2d6c1b7e4c10";
export const DEV_NAME = { en: "Company Data (dev)", de: "Firmendaten (Entwicklung)" };

/** German-speaking locales that get the German texts (Office picks an override by the UI's exact locale). */
export const GERMAN_LOCALES = ["de-DE", "de-AT", "de-CH"];

/**
 * The dev manifest: the source's dev URLs, with the dev Id and display name.
 * The Id and the default name are set by Microsoft's own tool
 * (office-addin-manifest's modifyManifestFile, the same call as `npx
 * office-addin-manifest modify -g ID -d NAME`), which works on a file; the
 * German overrides of the name, which it does not touch, are set here.
 */
export async function devManifest(xml: string): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), "manifest-dev-"));
  try {
    const file = join(dir, "manifest.xml");
    await writeFile(file, xml);
    await OfficeAddinManifest.modifyManifestFile(file, DEV_ID, DEV_NAME.en);
    const out = await readFile(file, "utf8");
    return out.replace(
      /(<DisplayName DefaultValue="[^"]*">)([\s\S]*?)(<\/DisplayName>)/,
      (_, open: string, inner: string, close: string) =>
        `${open}${inner.replace(/(<Override Locale="de-(?:DE|AT|CH)" Value=")[^"]*"/g, `$1${DEV_NAME.de}"`)}${close}`,
    );
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/** What Office reads from a manifest (Id, version, display name, hosts …), by office-addin-manifest's reader. */
export async function manifestInfo(xml: string): Promise<ManifestInfo> {
  const dir = await mkdtemp(join(tmpdir(), "manifest-info-"));
  try {
    const file = join(dir, "manifest.xml");
    await writeFile(file, xml);
    return await OfficeAddinManifest.readManifestFile(file);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/** The manifest for another host: every dev URL replaced, nothing else touched. */
export function manifestForHost(xml: string, hostUrl: string): string {
  const url = new URL(hostUrl);
  if (url.protocol !== "https:") throw new Error(`the host URL must be https: ${hostUrl}`);
  const base = hostUrl.replace(/\/+$/, "");
  return xml.split(DEV_HOST_URL).join(base);
}

const find = (root: XmlElement, name: string) => allElements(root).filter((e) => localName(e) === name);

/**
 * Problems found; an empty list means the manifest passed. Each check below
 * looks at one concern; they run in a fixed order so the report reads the
 * same from one build to the next.
 */
export function checkManifest(xml: string): string[] {
  let root: XmlElement;
  try {
    root = parseXml(xml);
  } catch (e) {
    return [`not well-formed: ${(e as Error).message}`];
  }
  const els = allElements(root);
  const problems: string[] = [];
  if (localName(root) !== "OfficeApp") problems.push(`root is <${root.name}>, expected <OfficeApp>`);
  const resources = resourceValues(root, problems);
  const runtime = find(root, "Runtime")[0];
  return [
    ...problems,
    ...undefinedResids(els, resources),
    ...duplicateControlIds(els),
    ...idProblems(root),
    ...urlProblems(root, els),
    ...requirementSetProblems(root),
    ...runtimeProblems(root, els, resources),
    ...actionProblems(root, runtime),
    ...germanOverrideProblems(els),
    ...permissionAndHostProblems(root),
  ];
}

/** The resources by id (id → DefaultValue); duplicate and over-long ids go into problems. */
function resourceValues(root: XmlElement, problems: string[]): Map<string, string> {
  const resources = new Map<string, string>();
  const resourcesEl = find(root, "Resources")[0];
  const resourceDefs = resourcesEl
    ? allElements(resourcesEl).filter((e) => ["Image", "Url", "String"].includes(localName(e)) && e.attrs.id)
    : [];
  for (const {
    attrs: { id, DefaultValue },
  } of resourceDefs) {
    if (id === undefined) continue; // filtered above: resources without id are not definitions
    if (resources.has(id)) problems.push(`resource id ${id} defined twice`);
    resources.set(id, DefaultValue ?? "");
    if (id.length > 32) problems.push(`resource id ${id} is longer than 32 characters`);
  }
  return resources;
}

/** Every resid must name a defined resource. */
function undefinedResids(els: readonly XmlElement[], resources: ReadonlyMap<string, string>): string[] {
  const problems: string[] = [];
  for (const el of els) {
    const resid = el.attrs.resid;
    if (resid !== undefined && !resources.has(resid)) problems.push(`line ${el.line}: resid ${resid} is not defined`);
  }
  return problems;
}

/** Control, group and tab ids present and unique. */
function duplicateControlIds(els: readonly XmlElement[]): string[] {
  const problems: string[] = [];
  const ids = new Set<string>();
  for (const el of els) {
    if (!["Control", "Group", "CustomTab"].includes(localName(el))) continue;
    const id = el.attrs.id;
    if (!id) problems.push(`line ${el.line}: <${el.name}> without id`);
    else if (ids.has(id)) problems.push(`line ${el.line}: id ${id} used twice`);
    else ids.add(id);
  }
  return problems;
}

/** The add-in's <Id> is a GUID. */
function idProblems(root: XmlElement): string[] {
  const idEl = find(root, "Id")[0];
  if (!idEl || !/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(idEl.text.trim()))
    return ["<Id> is not a GUID"];
  return [];
}

/** Every URL (attributes of URL-holding elements, URL overrides, app domains) is https. */
function urlProblems(root: XmlElement, els: readonly XmlElement[]): string[] {
  const problems: string[] = [];
  const urlHolders = ["IconUrl", "HighResolutionIconUrl", "SupportUrl", "SourceLocation", "Url", "Image"];
  for (const el of els) {
    const values = [el.attrs.DefaultValue, ...(localName(el) === "Override" ? [el.attrs.Value] : [])];
    const isUrl =
      urlHolders.includes(localName(el)) || (localName(el) === "Override" && /^https?:/i.test(el.attrs.Value ?? ""));
    if (!isUrl) continue;
    for (const v of values)
      if (v !== undefined && !/^https:\/\/[^\s]+$/.test(v)) problems.push(`line ${el.line}: URL is not https: ${v}`);
  }
  for (const el of find(root, "AppDomain"))
    if (!/^https:\/\//.test(el.text.trim())) problems.push(`AppDomain is not https: ${el.text}`);
  return problems;
}

/** The requirement sets one shared runtime for functions, task pane and commands needs. */
function requirementSetProblems(root: XmlElement): string[] {
  const problems: string[] = [];
  const sets = find(root, "Set").map((s) => s.attrs.Name);
  if (!sets.includes("SharedRuntime")) problems.push("the SharedRuntime requirement set is missing");
  // Custom functions need their own runtime's set; errors with a message (CustomFunctions.Error) came with 1.2
  // (Microsoft, "Custom Functions requirement sets").
  const cfSet = find(root, "Set").find((s) => s.attrs.Name === "CustomFunctionsRuntime");
  if (!cfSet) problems.push("the CustomFunctionsRuntime requirement set is missing");
  else if (Number(cfSet.attrs.MinVersion ?? "1.1") < 1.2)
    problems.push("CustomFunctionsRuntime must be at least 1.2 (CustomFunctions.Error with a message)");
  return problems;
}

/** One long-lived <Runtime>, and functions, commands and task pane all pointing at it. */
function runtimeProblems(
  root: XmlElement,
  els: readonly XmlElement[],
  resources: ReadonlyMap<string, string>,
): string[] {
  const problems: string[] = [];
  const runtimes = find(root, "Runtime");
  if (runtimes.length !== 1) problems.push(`expected one <Runtime>, found ${runtimes.length}`);
  const runtime = runtimes[0];
  if (runtime && runtime.attrs.lifetime !== "long") problems.push('the runtime must have lifetime="long"');
  const runtimeUrl = runtime?.attrs.resid !== undefined ? resources.get(runtime.attrs.resid) : undefined;
  problems.push(...customFunctionsProblems(els, runtime, resources));
  const functionFile = find(root, "FunctionFile")[0];
  if (functionFile && functionFile.attrs.resid !== runtime?.attrs.resid)
    problems.push("the commands' <FunctionFile> is not the shared runtime");
  const taskpane = find(root, "DefaultSettings")[0]?.children.find((c) => localName(c) === "SourceLocation")?.attrs
    .DefaultValue;
  if (!taskpane || taskpane !== runtimeUrl)
    problems.push("the task pane's SourceLocation is not the shared runtime's page");
  return problems;
}

/** The CustomFunctions extension point: its page is the shared runtime, script and metadata set, namespace COMPANY. */
function customFunctionsProblems(
  els: readonly XmlElement[],
  runtime: XmlElement | undefined,
  resources: ReadonlyMap<string, string>,
): string[] {
  const cf = els.find((e) => localName(e) === "ExtensionPoint" && e.attrs["xsi:type"] === "CustomFunctions");
  if (!cf) return ["no CustomFunctions extension point"];
  const problems: string[] = [];
  const part = (name: string) => cf.children.find((c) => localName(c) === name);
  const page = part("Page")?.children[0]?.attrs.resid;
  if (!page || page !== runtime?.attrs.resid) problems.push("the custom functions' <Page> is not the shared runtime");
  for (const p of ["Script", "Metadata"])
    if (!part(p)?.children[0]?.attrs.resid) problems.push(`custom functions <${p}> has no SourceLocation`);
  const ns = part("Namespace")?.attrs.resid;
  if (!ns || resources.get(ns) !== "COMPANY") problems.push("the custom functions' namespace is not COMPANY");
  return problems;
}

/**
 * Ribbon buttons open the pane with ShowTaskpane: since 2026-02-23 Office ignores
 * Office.addin.showAsTaskpane() for Marketplace add-ins (Microsoft, "Show or hide
 * the task pane of your Office Add-in").
 */
function actionProblems(root: XmlElement, runtime: XmlElement | undefined): string[] {
  const problems: string[] = [];
  const actions = find(root, "Action");
  if (actions.length === 0) problems.push("no ribbon button opens the task pane");
  for (const action of actions) {
    const type = action.attrs["xsi:type"];
    if (type === "ShowTaskpane") {
      const loc = action.children.find((c) => localName(c) === "SourceLocation")?.attrs.resid;
      if (loc !== runtime?.attrs.resid)
        problems.push(`line ${action.line}: a task pane button opens a page other than the shared runtime`);
    } else
      problems.push(
        `line ${action.line}: action ${type}: buttons must be ShowTaskpane (showAsTaskpane is ignored for Marketplace add-ins)`,
      );
    // Microsoft, "Configure your Office Add-in to use a shared runtime" (revised 2026-07-30), "Good practice: avoid
    // multiple task panes": under a Host whose Runtime has lifetime="long", no Action should have a <TaskpaneId>.
    if (runtime?.attrs.lifetime === "long" && action.children.some((c) => localName(c) === "TaskpaneId"))
      problems.push(`line ${action.line}: an action has a <TaskpaneId> under the long-lifetime shared runtime`);
  }
  return problems;
}

/** Every German text for every German-speaking locale, the same text. */
function germanOverrideProblems(els: readonly XmlElement[]): string[] {
  const problems: string[] = [];
  for (const el of els) {
    const overrides = el.children.filter((c) => localName(c) === "Override");
    const de = overrides.find((o) => o.attrs.Locale === "de-DE");
    if (!de) continue;
    for (const loc of GERMAN_LOCALES) {
      const o = overrides.find((x) => x.attrs.Locale === loc);
      if (!o) problems.push(`line ${el.line}: no ${loc} override beside de-DE`);
      else if (o.attrs.Value !== de.attrs.Value) problems.push(`line ${o.line}: ${loc} differs from de-DE`);
    }
  }
  return problems;
}

/** The add-in asks for ReadWriteDocument and runs in Excel (host Workbook). */
function permissionAndHostProblems(root: XmlElement): string[] {
  const problems: string[] = [];
  const permissions = find(root, "Permissions")[0]?.text.trim();
  if (permissions !== "ReadWriteDocument") problems.push(`permissions are ${permissions}, expected ReadWriteDocument`);
  if (!find(root, "Host").some((h) => h.attrs.Name === "Workbook")) problems.push("the host Workbook is missing");
  return problems;
}

/** The manifest's <Version> (four numbers; Excel re-reads functions.json only when it changes). */
export function manifestVersion(xml: string): string {
  return find(parseXml(xml), "Version")[0]?.text.trim() ?? "";
}

/** The URLs (resolved from resources) the manifest loads, for checking the build output. */
export function manifestUrls(xml: string): string[] {
  const root = parseXml(xml);
  const urls = new Set<string>();
  for (const el of allElements(root)) {
    for (const v of [el.attrs.DefaultValue, localName(el) === "Override" ? el.attrs.Value : undefined])
      if (v && /^https:\/\//.test(v)) urls.add(v);
  }
  return [...urls];
}
