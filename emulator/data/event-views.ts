/**
 * How one event of a company's history shows in the API's views: the
 * announcement's type (/announcements), the change's kind and the field it
 * changed (/changes).
 */
import type { EventKind } from "./details.ts";

export const ANNOUNCEMENT_TYPE: Record<EventKind, string> = {
  NEW_ENTRY: "NEW_ENTRY",
  ADDRESS: "CHANGE",
  PURPOSE: "CHANGE",
  MANAGEMENT: "MANAGEMENT_CHANGE",
  CAPITAL: "CAPITAL_CHANGE",
  LIQUIDATION: "LIQUIDATION",
  INSOLVENCY: "INSOLVENCY",
  DELETION: "DELETION",
};
export const CHANGE_KIND: Record<EventKind, string> = {
  NEW_ENTRY: "ANNOUNCEMENT",
  ADDRESS: "ADDRESS",
  PURPOSE: "PURPOSE",
  MANAGEMENT: "MANAGEMENT",
  CAPITAL: "CAPITAL",
  LIQUIDATION: "STATUS",
  INSOLVENCY: "STATUS",
  DELETION: "STATUS",
};
export const CHANGE_FIELD: Record<EventKind, string> = {
  NEW_ENTRY: "register",
  ADDRESS: "street",
  PURPOSE: "purpose",
  MANAGEMENT: "people",
  CAPITAL: "capital",
  LIQUIDATION: "status",
  INSOLVENCY: "status",
  DELETION: "status",
};
