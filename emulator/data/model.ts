/** The stored form of a company: small, numeric where possible, so 500,000 fit in memory. */
export type StatusCode = "ACTIVE" | "IN_LIQUIDATION" | "INSOLVENT" | "DELETED" | "INACTIVE";
export type SizeCode = "MICRO" | "SMALL" | "MEDIUM" | "LARGE";
export const SIZE_ORDER: readonly SizeCode[] = ["MICRO", "SMALL", "MEDIUM", "LARGE"];

export interface CompanyRec {
  idx: number;
  id: string;
  name: string;
  /** Key into i18n LEGAL_FORMS. */
  legalForm: string;
  city: number;
  zip: string;
  street: string;
  lat: number;
  lon: number;
  /** Index into INDUSTRIES (reference companies too: industries.ts maps their classes). */
  industry: number;
  size: SizeCode;
  employees: number;
  foundingDate: string;
  registerType: string;
  registerNumber: string;
  /** Status at the emulator's start date; the clock's overlay may change it. */
  status: StatusCode;
  statusDate?: string;
  /** Static screening warning (payment defaults etc.), besides status-driven ones. */
  warning: boolean;
  capital: number;
  /** Set for the 29 real companies. */
  reference?: ReferenceCompany;
  /** Earlier names, newest first (data/history.ts); absent for most. */
  formerNames?: { name: string; until: number }[];
}

export interface ReferenceCompany {
  id: string;
  name: string;
  legalForm: string;
  city: string;
  federalState: string;
  industry: string;
  size: string;
  foundingDate: string | null;
  summary: string;
  financials: null | {
    year: number;
    revenue?: number;
    profit?: number;
    equity?: number;
    equityRatio?: number;
    balanceSheetTotal?: number;
    reportType?: string;
  };
}
