/** Errors as data for the UI: the code, the message in both languages, the field at fault. */
import { toCompanyDataError } from "../core/index.ts";
import type { AppError } from "./protocol.ts";

export function errorView(e: unknown): AppError {
  const err = toCompanyDataError(e);
  const view: AppError = { code: err.code, message: { de: err.text("de"), en: err.text("en") } };
  if (err.details.field) view.field = err.details.field;
  if (err.details.retryAt !== undefined) view.retryAt = err.details.retryAt;
  if (err.details.teamServer) view.teamServer = true;
  return view;
}
