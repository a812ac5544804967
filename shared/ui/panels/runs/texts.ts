/** The Runs section's own texts (DE/EN). */
export const T = {
  title: { de: "Läufe (rückgängig machen)", en: "Runs (undo)" },
  intro: {
    de: "Jede Zelle, die ein Lauf schreibt, wird mit altem und neuem Wert protokolliert. „Diesen Lauf rückgängig machen“ schreibt die alten Werte zurück, wo noch der Wert des Laufs steht, auch nach Sortieren; von Ihnen seither geänderte Zellen bleiben und werden genannt. Credits werden nicht erstattet.",
    en: 'Every cell a run writes is recorded with its old and new value. "Undo this run" writes the old values back where the run\'s value still stands, also after sorting; cells you changed since are kept and listed. Credits are not refunded.',
  },
  none: { de: "Noch kein Lauf hat Zellen geändert.", en: "No run has changed cells yet." },
  reload: { de: "Liste neu laden", en: "Reload list" },
  undo: { de: "Diesen Lauf rückgängig machen", en: "Undo this run" },
  undone: { de: "rückgängig gemacht", en: "undone" },
  unfinished: { de: "unvollständig", en: "unfinished" },
  partial: { de: "nur teilweise protokolliert", en: "recorded in part only" },
  kinds: {
    refresh: { de: "Aktualisierung", en: "Refresh" },
    enrich: { de: "Anreicherung", en: "Enrichment" },
    undo: { de: "Rückgängig", en: "Undo" },
  } as Record<string, { de: string; en: string }>,
  schedule: { de: "Zeitplan", en: "schedule" },
  line: {
    de: (rows: string, cells: string, credits: string) =>
      `${rows} Zeilen, ${cells} Zellen geändert, ${credits} Credits`,
    en: (rows: string, cells: string, credits: string) => `${rows} rows, ${cells} cells changed, ${credits} credits`,
  },
  size: {
    de: (runs: string, cells: string, kb: string, maxRuns: string, maxCells: string) =>
      `Protokoll: ${runs} Läufe, ${cells} Zellen, ${kb} KB (behalten werden die letzten ${maxRuns} Läufe bzw. ${maxCells} Zellen; die ältesten fallen zuerst weg).`,
    en: (runs: string, cells: string, kb: string, maxRuns: string, maxCells: string) =>
      `Audit: ${runs} runs, ${cells} cells, ${kb} KB (the last ${maxRuns} runs or ${maxCells} cells are kept; the oldest go first).`,
  },
  done: {
    de: (n: string, rows: string) => `${n} Zellen in ${rows} Zeilen wiederhergestellt. Credits werden nicht erstattet.`,
    en: (n: string, rows: string) => `${n} cells in ${rows} rows restored. Credits are not refunded.`,
  },
  already: {
    de: "Dieser Lauf wurde schon rückgängig gemacht; nichts geschrieben.",
    en: "This run was undone already; nothing written.",
  },
  kept: {
    de: (cell: string, now: string) => `behalten (von Ihnen geändert): ${cell} „${now}“`,
    en: (cell: string, now: string) => `kept (you changed it): ${cell} "${now}"`,
  },
  deleted: {
    de: (row: string) => `Zeile nicht mehr gefunden (gelöscht?): ${row}`,
    en: (row: string) => `row not found any more (deleted?): ${row}`,
  },
} as const;
