import assert from "node:assert/strict";
import { describe, it } from "node:test";
import fc from "fast-check";
import { composeIBAN, friendlyFormatIBAN } from "ibantools";
import { parseBic, parseBsb, parseIban, parseTaxId, withLostPrefixLetter } from "../../src/extract/normalise/ids.js";

fc.configureGlobal({ numRuns: Number(process.env.FC_NUM_RUNS ?? 100) });

/** Real-format IBANs with valid check digits (public bank examples). */
const IBANS = [
  "DE89370400440532013000",
  "FR1420041010050500013M02606",
  "GB29NWBK60161331926819",
  "NL91ABNA0417164300",
  "CH9300762011623852957",
  "AT611904300234573201",
  "ES9121000418450200051332",
  "IT60X0542811101000000123456",
  "BE68539007547034",
];

describe("parseIban", () => {
  it("accepts every valid IBAN compact, grouped in fours, or lower case", () => {
    for (const iban of IBANS) {
      assert.equal(parseIban(iban), iban);
      assert.equal(parseIban(friendlyFormatIBAN(iban) ?? ""), iban);
      assert.equal(parseIban(`(${iban.toLowerCase()}),`), iban);
    }
  });

  it("any generated IBAN parses back from its printed, grouped form", () => {
    const bban = (length: number) =>
      fc.string({ unit: fc.constantFrom(..."0123456789".split("")), minLength: length, maxLength: length });
    fc.assert(
      fc.property(
        fc.oneof(
          bban(18).map((b) => ["DE", b]),
          bban(16).map((b) => ["AT", b]),
        ),
        ([countryCode = "", digits = ""]) => {
          const iban = composeIBAN({ countryCode, bban: digits });
          assert.ok(iban !== null);
          assert.equal(parseIban(friendlyFormatIBAN(iban) ?? ""), iban);
        },
      ),
    );
  });

  it("reads a dollar sign OCR put for a 5 as the 5, the check digits deciding", () => {
    assert.equal(parseIban("FR20 1254 2547 2569 8542 $874 698"), "FR2012542547256985425874698");
    assert.equal(parseIban("FR20 1254 2547 2569 8542 $874 699"), null);
  });

  it("rejects any single changed digit (the mod-97 check catches every one)", () => {
    fc.assert(
      fc.property(fc.constantFrom(...IBANS), fc.nat(), fc.integer({ min: 1, max: 9 }), (iban, at, shift) => {
        const digits = [...iban]
          .map((char, index) => (/\d/.test(char) && index >= 2 ? index : -1))
          .filter((i) => i >= 0);
        const index = digits[at % digits.length] ?? 2;
        const changed = `${iban.slice(0, index)}${(Number(iban[index]) + shift) % 10}${iban.slice(index + 1)}`;
        assert.equal(parseIban(changed), null, changed);
      }),
    );
  });

  it("accepts an IBAN whose mod-97 check holds where the country's inner account key does not", () => {
    // FR: bank 12542, branch 54725, account 69854258746, RIB key 98 (the right key would be 60); IBAN check 20 holds.
    assert.equal(parseIban("FR20 1254 2547 2569 8542 5874 698"), "FR2012542547256985425874698");
    // The same account under check digits 76 fails mod 97: refused.
    assert.equal(parseIban("FR76 1254 2547 2569 8542 5874 698"), null);
  });

  it("rejects what is not one IBAN", () => {
    for (const text of ["DE88370400440532013000", "DE89 3704 0044", "IBAN DE89370400440532013000", "Hello world"]) {
      assert.equal(parseIban(text), null, text);
    }
  });
});

describe("parseBic", () => {
  it("accepts 8 and 11 characters with a real country code", () => {
    assert.equal(parseBic("DEUTDEFF"), "DEUTDEFF");
    assert.equal(parseBic("DEUTDEFF500"), "DEUTDEFF500");
    assert.equal(parseBic("BIC: COBADEFFXXX"), null, "the label is not part of the value");
    assert.equal(parseBic("(COBADEFFXXX)"), "COBADEFFXXX");
  });

  it("rejects bad country codes, wrong lengths and lower-case words", () => {
    for (const text of ["DEUTXXFF", "DEUTDEF", "DEUTDEFF5", "deutdeff", "SUBTOTAL", "absolute"]) {
      assert.equal(parseBic(text), null, text);
    }
  });
});

describe("parseBsb", () => {
  it("normalises to NNN-NNN", () => {
    assert.equal(parseBsb("062-000"), "062-000");
    assert.equal(parseBsb("062000"), "062-000");
    assert.equal(parseBsb("062 000"), "062-000");
    for (const text of ["06-2000", "0620001", "62000", "BSB"]) assert.equal(parseBsb(text), null, text);
  });
});

describe("parseTaxId", () => {
  it("reads EU VAT ids through jsvat, spaced or dotted, and says whether the checksum holds", () => {
    assert.deepEqual(parseTaxId("DE136695976"), { value: "DE136695976", country: "DE", valid: true });
    assert.deepEqual(parseTaxId("DE 136 695 976"), { value: "DE136695976", country: "DE", valid: true });
    assert.deepEqual(parseTaxId("DE123456789"), { value: "DE123456789", country: "DE", valid: false });
    assert.deepEqual(parseTaxId("FR11999999998"), { value: "FR11999999998", country: "FR", valid: true });
    assert.deepEqual(parseTaxId("ATU13585627"), { value: "ATU13585627", country: "AT", valid: true });
    assert.deepEqual(parseTaxId("GB980780684"), { value: "GB980780684", country: "GB", valid: true });
    assert.deepEqual(parseTaxId("CHE-116.281.710 MWST"), { value: "CHE116281710", country: "CH", valid: true });
    assert.deepEqual(parseTaxId("(NL004495445B01)"), { value: "NL004495445B01", country: "NL", valid: true });
  });

  it("reads ABN, EIN, Steuernummer and Malaysian GST/SST ids", () => {
    assert.deepEqual(parseTaxId("51 824 753 556"), { value: "51824753556", country: "AU", valid: true });
    assert.equal(parseTaxId("51 824 753 557"), null, "a bare digit run failing the ABN check is no ABN");
    assert.deepEqual(parseTaxId("12-3456789"), { value: "123456789", country: "US", valid: true });
    assert.equal(parseTaxId("07-3456789"), null, "07 is no EIN prefix");
    assert.deepEqual(parseTaxId("12/345/67890"), { value: "1234567890", country: "DE", valid: true });
    assert.deepEqual(parseTaxId("000306020352"), { value: "000306020352", country: "MY", valid: true });
    assert.deepEqual(parseTaxId("W10-1808-32000008"), { value: "W10180832000008", country: "MY", valid: true });
  });

  it("reads a country code only as printed, in capitals: 'No. 388762969' is a number, not Norway's VAT id", () => {
    for (const text of ["No. 388762969", "NO. 388762969", "No 388762969", "de 136695976"]) {
      assert.equal(parseTaxId(text), null, text);
    }
    assert.deepEqual(parseTaxId("NO 974760673 MVA"), { value: "NO974760673MVA", country: "NO", valid: true });
  });

  it("refuses numbers that name no tax scheme", () => {
    for (const text of ["123456789", "Rechnung", "DE12", "12/34/56", "123456789012", "2024-04-03", "W10180832000008"]) {
      assert.equal(parseTaxId(text), null, text);
    }
  });
});

describe("withLostPrefixLetter", () => {
  it("restores the one country prefix holding the letter read whose checksum the digits pass", () => {
    assert.deepEqual(withLostPrefixLetter("R 11 123 456 782"), { value: "FR11123456782", country: "FR", valid: true });
    assert.deepEqual(withLostPrefixLetter("F 11 123 456 782"), { value: "FR11123456782", country: "FR", valid: true });
    assert.deepEqual(withLostPrefixLetter("E136695976"), { value: "DE136695976", country: "DE", valid: true });
  });

  it("restores nothing when no prefix passes, when only a scheme without checksum would, or from a whole id", () => {
    for (const text of ["R 12 345 678 901", "E 123 456 789", "FR 11 123 456 782", "11 123 456 782", "R 11"]) {
      assert.equal(withLostPrefixLetter(text), null, text);
    }
  });
});
