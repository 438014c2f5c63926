/** Invented company, person and shop names with postal addresses in each country's own conventions. */
import type { Country } from "./ids.js";
import type { Lang } from "./locales.js";
import type { Rng } from "./prng.js";

export interface Party {
  name: string;
  /** A private person, not a company: no departments, no legal form. */
  person?: boolean;
  /** Printed address lines; the label joins them with ", ". */
  addressLines: string[];
}

interface CountryNames {
  stems: readonly string[];
  trades: readonly string[];
  forms: readonly string[];
  firstNames: readonly string[];
  lastNames: readonly string[];
  shops: readonly string[];
  address: (rng: Rng) => string[];
  countryName: string;
}

const pick2 = (rng: Rng, a: readonly string[]): string => rng.pick(a);

const NAMES: Record<Country, CountryNames> = {
  DE: {
    stems: [
      "Nordlicht",
      "Bergmann",
      "Rheinland",
      "Alpenland",
      "Hansa",
      "Sonnenschein",
      "Weber",
      "Elbtal",
      "Isartal",
      "Fichtel",
      "Lindner",
      "Brandt",
    ],
    trades: [
      "Technik",
      "Logistik",
      "Software",
      "Handel",
      "Bau",
      "Druck",
      "Consulting",
      "Elektro",
      "Metallbau",
      "Medien",
    ],
    forms: ["GmbH", "AG", "GmbH & Co. KG", "UG (haftungsbeschränkt)", "e.K.", "KG"],
    firstNames: ["Anna", "Lukas", "Sophie", "Jonas", "Marie", "Felix", "Lena", "Paul"],
    lastNames: ["Schneider", "Fischer", "Wagner", "Becker", "Hoffmann", "Schäfer", "Koch", "Richter"],
    shops: ["Bäckerei", "Getränkemarkt", "Café", "Apotheke", "Buchhandlung", "Metzgerei", "Blumen"],
    address: (rng) => [
      `${rng.pick(["Hauptstraße", "Bahnhofstraße", "Gartenweg", "Industriestraße", "Lindenallee", "Schillerstraße", "Am Markt", "Goethestraße", "Friedrichstraße"])} ${rng.int(1, 180)}${rng.chance(0.15) ? rng.pick(["a", "b"]) : ""}`,
      `${rng.int(10, 99)}${rng.digits(3)} ${rng.pick(["Berlin", "München", "Hamburg", "Köln", "Frankfurt am Main", "Stuttgart", "Leipzig", "Dresden", "Bremen", "Nürnberg"])}`,
    ],
    countryName: "Deutschland",
  },
  CH: {
    stems: ["Alpenblick", "Matterhorn", "Zürichsee", "Helvetia", "Rigi", "Aare", "Säntis"],
    trades: ["Treuhand", "Informatik", "Uhren", "Bau", "Transport", "Gastro"],
    forms: ["AG", "GmbH", "SA"],
    firstNames: ["Luca", "Nina", "Reto", "Laura", "Urs"],
    lastNames: ["Müller", "Meier", "Keller", "Brunner", "Baumann"],
    shops: ["Bäckerei", "Café", "Apotheke"],
    address: (rng) => [
      `${rng.pick(["Bahnhofstrasse", "Seestrasse", "Dorfstrasse", "Kirchweg", "Marktgasse"])} ${rng.int(1, 120)}`,
      `${rng.pick(["8001 Zürich", "3011 Bern", "4051 Basel", "6003 Luzern", "9000 St. Gallen", "8400 Winterthur"])}`,
    ],
    countryName: "Schweiz",
  },
  FR: {
    stems: [
      "Dupont",
      "Lefèvre",
      "Marchand",
      "Girard",
      "du Midi",
      "Lumière",
      "Bellevue",
      "Rivière",
      "Beaulieu",
      "Moreau",
    ],
    trades: ["Atelier", "Société", "Groupe", "Laboratoires", "Éditions", "Transports", "Conseil", "Bâtiment"],
    forms: ["SARL", "SAS", "SA", "EURL", "SASU"],
    firstNames: ["Camille", "Louis", "Chloé", "Hugo", "Léa", "Jules"],
    lastNames: ["Martin", "Bernard", "Dubois", "Thomas", "Robert", "Richard", "Petit"],
    shops: ["Boulangerie", "Café", "Pharmacie", "Librairie", "Épicerie", "Fromagerie"],
    address: (rng) => [
      `${rng.int(1, 140)}${rng.chance(0.1) ? " bis" : ""} ${rng.pick(["rue de la Paix", "avenue Victor Hugo", "boulevard Haussmann", "place de la République", "rue des Lilas", "chemin des Vignes", "rue Nationale"])}`,
      `${rng.pick(["75008 Paris", "69002 Lyon", "13001 Marseille", "31000 Toulouse", "44000 Nantes", "33000 Bordeaux", "59000 Lille", "67000 Strasbourg"])}`,
    ],
    countryName: "France",
  },
  ES: {
    stems: ["García", "Iberia", "del Sur", "Martínez", "Levante", "Hermanos López", "Sierra", "Mediterráneo"],
    trades: ["Distribuciones", "Construcciones", "Comercial", "Talleres", "Suministros", "Servicios", "Consultores"],
    forms: ["S.L.", "S.A.", "S.L.U."],
    firstNames: ["Lucía", "Hugo", "Martina", "Pablo", "Sofía", "Diego"],
    lastNames: ["Fernández", "González", "Rodríguez", "Sánchez", "Pérez", "Gómez"],
    shops: ["Cafetería", "Farmacia", "Panadería", "Librería", "Frutería"],
    address: (rng) => [
      `${rng.pick(["Calle Mayor", "Avenida de la Constitución", "Plaza de España", "Calle de Alcalá", "Paseo de Gracia", "Calle Real"])} ${rng.int(1, 200)}${rng.chance(0.3) ? `, ${rng.int(1, 8)}º` : ""}`,
      `${rng.pick(["28013 Madrid", "08007 Barcelona", "46002 Valencia", "41001 Sevilla", "48001 Bilbao", "50001 Zaragoza"])}`,
    ],
    countryName: "España",
  },
  NL: {
    stems: ["Van der Berg", "De Vries", "Oranje", "Polder", "Zeeland", "Molenaar", "Tulp", "Dijkstra"],
    trades: ["Techniek", "Handel", "Installatie", "Logistiek", "Media", "Bouw", "Advies"],
    forms: ["B.V.", "N.V.", "V.O.F."],
    firstNames: ["Daan", "Emma", "Sem", "Julia", "Lars", "Sanne"],
    lastNames: ["Jansen", "de Jong", "Bakker", "Visser", "Smit", "Meijer"],
    shops: ["Bakkerij", "Café", "Apotheek", "Boekhandel", "Kaashandel"],
    address: (rng) => [
      `${rng.pick(["Keizersgracht", "Kerkstraat", "Dorpsstraat", "Stationsweg", "Molenweg", "Marktplein"])} ${rng.int(1, 300)}`,
      `${rng.int(1000, 9999)} ${rng.letters(2)} ${rng.pick(["Amsterdam", "Rotterdam", "Utrecht", "Den Haag", "Eindhoven", "Groningen"])}`,
    ],
    countryName: "Nederland",
  },
  GB: {
    stems: ["Thames", "Pennine", "Oakwood", "Albion", "Kingsley", "Harbour", "Redbrick", "Whitfield"],
    trades: ["Engineering", "Supplies", "Consulting", "Print", "Digital", "Joinery", "Logistics"],
    forms: ["Ltd", "Limited", "PLC", "LLP"],
    firstNames: ["Oliver", "Amelia", "Harry", "Isla", "George", "Emily"],
    lastNames: ["Smith", "Jones", "Taylor", "Brown", "Wilson", "Evans"],
    shops: ["Deli", "Grocers", "Pharmacy", "Bakery", "Books", "Coffee House"],
    address: (rng) => [
      `${rng.int(1, 250)} ${rng.pick(["High Street", "Baker Street", "Station Road", "Church Lane", "Victoria Road", "Mill Lane"])}`,
      rng.pick(["London", "Manchester", "Leeds", "Bristol", "Birmingham", "Glasgow"]),
      `${rng.letters(2)}${rng.int(1, 20)} ${rng.int(1, 9)}${rng.letters(2)}`,
    ],
    countryName: "United Kingdom",
  },
  AU: {
    stems: ["Southern Cross", "Koala", "Harbourside", "Outback", "Banksia", "Coastal", "Eucalypt", "Wattle"],
    trades: ["Plumbing", "Electrical", "Trading", "Consulting", "Landscaping", "IT Services", "Cleaning"],
    forms: ["Pty Ltd", "Pty. Ltd."],
    firstNames: ["Jack", "Charlotte", "William", "Mia", "Noah", "Olivia"],
    lastNames: ["Nguyen", "Smith", "Williams", "Kelly", "Martin", "White"],
    shops: ["Cafe", "Pharmacy", "Bakery", "Hardware", "Bottle Shop", "Newsagency"],
    address: (rng) => [
      `${rng.chance(0.3) ? `Unit ${rng.int(1, 20)}, ` : ""}${rng.int(1, 400)} ${rng.pick(["George Street", "Collins St", "Queen Street", "Hay Street", "King William Rd", "Bourke St"])}`,
      rng.pick([
        "Sydney NSW 2000",
        "Melbourne VIC 3000",
        "Brisbane QLD 4000",
        "Perth WA 6000",
        "Adelaide SA 5000",
        "Hobart TAS 7000",
      ]),
    ],
    countryName: "Australia",
  },
  US: {
    stems: ["Evergreen", "Liberty", "Summit", "Lakeside", "Redwood", "Pioneer", "Blue Ridge", "Granite"],
    trades: ["Solutions", "Supply Co.", "Industries", "Analytics", "Services", "Design", "Systems"],
    forms: ["Inc.", "LLC", "Corp."],
    firstNames: ["James", "Emma", "Michael", "Ava", "Ethan", "Sophia"],
    lastNames: ["Johnson", "Miller", "Davis", "Garcia", "Anderson", "Clark"],
    shops: ["Diner", "Hardware", "Pharmacy", "Coffee", "Market", "Deli"],
    address: (rng) => {
      const lines = [
        `${rng.int(10, 9999)} ${rng.pick(["Market Street", "Main St", "Oak Avenue", "Congress Ave", "Elm Street", "5th Avenue"])}`,
      ];
      if (rng.chance(0.3)) lines.push(`Suite ${rng.int(100, 900)}`);
      lines.push(
        rng.pick([
          "San Francisco, CA 94103",
          "Austin, TX 78701",
          "Chicago, IL 60601",
          "Denver, CO 80202",
          "Boston, MA 02108",
          "Portland, OR 97204",
        ]),
      );
      return lines;
    },
    countryName: "USA",
  },
  MY: {
    stems: ["AH SENG", "ZHENG HUI", "MAJU JAYA", "SRI PUTRA", "KIM HOCK", "BESTARI", "UNIHAKKA"],
    trades: ["KEDAI RUNCIT", "RESTORAN", "PERNIAGAAN", "SYARIKAT", "HARDWARE", "STATIONERY"],
    forms: ["SDN BHD", "ENTERPRISE", "TRADING", "(M) SDN. BHD."],
    firstNames: ["AHMAD", "SITI", "TAN", "LIM"],
    lastNames: ["ABDULLAH", "WONG", "LEE", "KUMAR"],
    shops: ["RESTORAN", "KEDAI RUNCIT", "BOOK STORE", "HARDWARE", "MINI MARKET"],
    address: (rng) => [
      `NO. ${rng.int(1, 99)}, JALAN ${rng.pick(["PUTRA", "BESAR", "TAMPOI", "MERDEKA", "SENTOSA", "IMPIAN"])} ${rng.int(1, 12)}`,
      `TAMAN ${rng.pick(["SRI PUTRA", "MELAWATI", "UNIVERSITI", "DAYA", "MOLEK"])}`,
      `${rng.int(40, 89)}${rng.digits(3)} ${rng.pick(["JOHOR BAHRU, JOHOR", "SHAH ALAM, SELANGOR", "KUALA LUMPUR", "PETALING JAYA, SELANGOR", "IPOH, PERAK"])}`,
    ],
    countryName: "MALAYSIA",
  },
};

export function companyName(rng: Rng, country: Country): string {
  const n = NAMES[country];
  const stem = pick2(rng, n.stems);
  const trade = pick2(rng, n.trades);
  const form = pick2(rng, n.forms);
  // Romance languages put the trade first ("Transports Girard SARL"), the others the stem first.
  const leadTrade = country === "FR" || country === "ES" || country === "MY";
  return leadTrade ? `${trade} ${stem} ${form}` : `${stem} ${trade} ${form}`;
}

export function personName(rng: Rng, country: Country): string {
  const n = NAMES[country];
  return `${pick2(rng, n.firstNames)} ${pick2(rng, n.lastNames)}`;
}

export function shopName(rng: Rng, country: Country): string {
  const n = NAMES[country];
  if (country === "MY") return companyName(rng, country);
  const shop = pick2(rng, n.shops);
  const stem = rng.chance(0.5) ? pick2(rng, n.lastNames) : pick2(rng, n.stems);
  return country === "GB" || country === "AU" || country === "US" ? `${stem} ${shop}` : `${shop} ${stem}`;
}

export function address(rng: Rng, country: Country, withCountry: boolean): string[] {
  const lines = NAMES[country].address(rng);
  if (withCountry) lines.push(NAMES[country].countryName);
  return lines;
}

/** The first two words of a company's name without its legal form, folded: what its web domain spells. */
export function domainStem(name: string): string {
  return name
    .toLowerCase()
    .normalize("NFKD")
    .replace(/[^\p{L}\p{N} ]/gu, "")
    .split(" ")
    .filter((w) => w && !/^(gmbh|ag|ltd|pty|inc|llc|sarl|sas|sa|bv|kg|co|plc|se|limited)$/.test(w))
    .slice(0, 2)
    .join("");
}

export function party(rng: Rng, country: Country, person: boolean, withCountry: boolean): Party {
  return {
    name: person ? personName(rng, country) : companyName(rng, country),
    addressLines: address(rng, country, withCountry),
    ...(person ? { person } : {}),
  };
}

/** Line-item descriptions per language; numbers inside them are deliberate distractors. */
export const ITEMS: Record<Lang, readonly string[]> = {
  en: [
    "Consulting services",
    "Website maintenance",
    "Office chair, ergonomic",
    "Printer paper A4 (box of 5)",
    "Software licence (annual)",
    "Installation labour",
    "Travel expenses",
    "Network cable CAT6 5m",
    "Monitor 27 inch",
    "Project management",
    "Training session (half day)",
    "Cloud hosting (monthly)",
    "Replacement filter",
    "Delivery charge",
    "Design work - logo revisions",
    "Support hours",
  ],
  de: [
    "Beratungsleistung",
    "Wartung Webseite",
    "Bürostuhl, ergonomisch",
    "Druckerpapier A4 (5 Pakete)",
    "Softwarelizenz (jährlich)",
    "Montagearbeiten",
    "Reisekosten",
    "Netzwerkkabel CAT6 5 m",
    "Monitor 27 Zoll",
    "Projektmanagement",
    "Schulung (halber Tag)",
    "Cloud-Hosting (monatlich)",
    "Ersatzfilter",
    "Versandkosten",
    "Grafikdesign Logo",
    "Supportstunden",
  ],
  fr: [
    "Prestation de conseil",
    "Maintenance site web",
    "Chaise de bureau ergonomique",
    "Papier A4 (carton de 5)",
    "Licence logicielle (annuelle)",
    "Main d'œuvre installation",
    "Frais de déplacement",
    "Câble réseau CAT6 5 m",
    "Écran 27 pouces",
    "Gestion de projet",
    "Formation (demi-journée)",
    "Hébergement cloud (mensuel)",
    "Filtre de rechange",
    "Frais de livraison",
  ],
  es: [
    "Servicios de consultoría",
    "Mantenimiento web",
    "Silla de oficina ergonómica",
    "Papel A4 (caja de 5)",
    "Licencia de software (anual)",
    "Mano de obra instalación",
    "Gastos de viaje",
    "Cable de red CAT6 5 m",
    "Monitor 27 pulgadas",
    "Gestión de proyecto",
    "Formación (media jornada)",
    "Alojamiento en la nube (mensual)",
    "Filtro de repuesto",
    "Gastos de envío",
  ],
  nl: [
    "Advieswerkzaamheden",
    "Onderhoud website",
    "Bureaustoel ergonomisch",
    "Printpapier A4 (doos van 5)",
    "Softwarelicentie (jaarlijks)",
    "Installatiewerk",
    "Reiskosten",
    "Netwerkkabel CAT6 5 m",
    "Monitor 27 inch",
    "Projectmanagement",
    "Training (halve dag)",
    "Cloudhosting (maandelijks)",
    "Vervangingsfilter",
    "Verzendkosten",
  ],
};

export const RECEIPT_ITEMS: Record<Lang, readonly string[]> = {
  en: [
    "Flat white",
    "Croissant",
    "Bottled water",
    "Sandwich",
    "Milk 2L",
    "Bread loaf",
    "Batteries AA",
    "Notebook",
    "Pen blue",
    "Apples 1kg",
    "Chicken rice",
    "Iced tea",
    "Tape 24mm",
    "Screws M4 (20)",
  ],
  de: [
    "Brötchen",
    "Kaffee",
    "Laugenbrezel",
    "Milch 1L",
    "Mineralwasser",
    "Butter",
    "Apfelsaft",
    "Käse 200g",
    "Zeitung",
    "Kugelschreiber",
  ],
  fr: [
    "Baguette",
    "Café crème",
    "Croissant",
    "Pain au chocolat",
    "Eau minérale",
    "Lait 1L",
    "Fromage",
    "Journal",
    "Stylo bille",
  ],
  es: [
    "Café con leche",
    "Tostada",
    "Zumo de naranja",
    "Agua 1,5L",
    "Barra de pan",
    "Leche 1L",
    "Magdalenas",
    "Periódico",
  ],
  nl: ["Koffie", "Broodje kaas", "Appeltaart", "Melk 1L", "Spa blauw", "Stroopwafels", "Krant", "Pen"],
};
