/** The fields every e-invoice syntax derives alike from what it has read. */

/** How a syntax reads a party (seller or buyer) element. */
export interface PartyReader<P> {
  name(party: P | undefined): string | null;
  address(party: P | undefined): string | null;
  taxId(party: P | undefined): string | null;
}

/** The party fields, alike in every syntax: supplier.* from the seller, customer.* from the buyer. */
export function partyFields<P>(
  read: PartyReader<P>,
  seller: P | undefined,
  buyer: P | undefined,
): Array<readonly [string, string | null]> {
  return (
    [
      ["supplier", seller],
      ["customer", buyer],
    ] as const
  ).flatMap(([role, party]) => [
    [`${role}.name`, read.name(party)],
    [`${role}.address`, read.address(party)],
    [`${role}.taxId`, read.taxId(party)],
  ]);
}

/** The document.* fields an invoice states through its own: type, date and number. */
export function documentFields(
  number: string | null,
  issued: string | null,
  credit: boolean,
): Array<readonly [string, string | null]> {
  return [
    ["document.type", credit ? "credit_note" : "invoice"],
    ["document.date", issued],
    ["document.referenceNo", number],
  ];
}
