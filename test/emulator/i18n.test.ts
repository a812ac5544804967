import { describe, expect, it } from "vitest";
import { caller, makeEmulator, SAP } from "./helpers.ts";

const emu = makeEmulator({ companies: 500 });

describe("Accept-Language switches every label", () => {
  it("legal forms, industries, size classes and status", () => {
    const de = caller(emu, emu.demoKey, "DE")("GET", `/v2/companies/${SAP}`).json;
    const en = caller(emu, emu.demoKey, "EN")("GET", `/v2/companies/${SAP}`).json;
    expect(de.legalForm).toEqual({ code: "SE", name: "Europäische Gesellschaft" });
    expect(en.legalForm).toEqual({ code: "SE", name: "European company" });
    expect(de.industry.title).toBe("Programmierungstätigkeiten");
    expect(en.industry.title).toBe("Computer programming activities");
    expect(de.size.name).toBe("Großunternehmen");
    expect(en.size.name).toBe("Large enterprise");
    expect(de.status.name).toBe("Aktiv");
    expect(en.status.name).toBe("Active");
  });

  it("event types and roles", () => {
    const de = caller(emu, emu.demoKey, "de-DE,de;q=0.9")("GET", `/v2/companies/${SAP}/announcements`).json
      .announcements;
    const en = caller(emu, emu.demoKey, "en-US")("GET", `/v2/companies/${SAP}/announcements`).json.announcements;
    expect(de.find((a: any) => a.type.code === "NEW_ENTRY").type.name).toBe("Neueintragung");
    expect(en.find((a: any) => a.type.code === "NEW_ENTRY").type.name).toBe("New entry");
    const pde = caller(emu, emu.demoKey, "DE")("GET", `/v2/companies/${SAP}/people`).json.people[0].role;
    const pen = caller(emu, emu.demoKey, "EN")("GET", `/v2/companies/${SAP}/people`).json.people[0].role;
    expect(pde.code).toBe(pen.code);
    expect(pde.name).not.toBe(pen.name);
  });

  it("error messages; German is the default", () => {
    const de = caller(emu, "", "DE")("GET", "/v2/account").json.error.message;
    const en = caller(emu, "", "EN")("GET", "/v2/account").json.error.message;
    const none = emu.handle({ method: "GET", url: "/v2/account", headers: {} });
    expect(de).toMatch(/Schlüssel/);
    expect(en).toMatch(/key missing/);
    expect(JSON.parse(none.body).error.message).toBe(de);
  });
});
