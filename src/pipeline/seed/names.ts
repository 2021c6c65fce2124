/**
 * Names of the synthetic market: artists by nationality (given names from pools, family names
 * built from syllables so that hundreds of thousands stay varied), titles of works, names of sales.
 * Every name is invented; any likeness to a real person is chance.
 */
import type { Random } from "../../market/random";

interface NameGroup {
  nationalities: readonly (readonly [string, number])[];
  given: readonly string[];
  stems: readonly string[];
  endings: readonly string[];
}

const GROUPS: readonly NameGroup[] = [
  {
    nationalities: [
      ["American", 14],
      ["British", 7],
      ["Canadian", 2],
      ["Australian", 1.5],
      ["Irish", 0.8],
    ],
    given: [
      "James",
      "Mary",
      "Robert",
      "Patricia",
      "John",
      "Jennifer",
      "Michael",
      "Linda",
      "David",
      "Elizabeth",
      "William",
      "Susan",
      "Richard",
      "Jessica",
      "Thomas",
      "Sarah",
      "Charles",
      "Karen",
      "Daniel",
      "Nancy",
      "Matthew",
      "Lisa",
      "Anthony",
      "Margaret",
      "Mark",
      "Sandra",
      "Paul",
      "Ashley",
      "Andrew",
      "Emily",
      "Joshua",
      "Helen",
      "Kenneth",
      "Grace",
      "Walter",
      "Ruth",
    ],
    stems: [
      "Ash",
      "Black",
      "Brad",
      "Brook",
      "Carl",
      "Chand",
      "Cran",
      "Dal",
      "Elling",
      "Fair",
      "Fen",
      "Gar",
      "Hale",
      "Hart",
      "Hol",
      "Kent",
      "Lang",
      "Mar",
      "Mor",
      "North",
      "Pem",
      "Rad",
      "Red",
      "Ship",
      "Stan",
      "Thorn",
      "Wal",
      "West",
      "Whit",
      "Wood",
    ],
    endings: ["ford", "ley", "ton", "wood", "field", "by", "well", "worth", "ham", "son", "stead", "more", "croft", "er"],
  },
  {
    nationalities: [
      ["French", 8],
      ["Belgian", 1.2],
      ["Swiss", 1.2],
    ],
    given: [
      "Jean",
      "Marie",
      "Pierre",
      "Claire",
      "Louis",
      "Camille",
      "Henri",
      "Isabelle",
      "Étienne",
      "Sophie",
      "Luc",
      "Hélène",
      "André",
      "Juliette",
      "Paul",
      "Margaux",
      "Olivier",
      "Céline",
      "Rémi",
      "Amélie",
      "Gaston",
      "Odile",
      "Marcel",
      "Inès",
    ],
    stems: ["Beau", "Bel", "Bon", "Char", "Cour", "Dela", "Dur", "Fon", "Gar", "Lam", "Lau", "Mar", "Mont", "Pel", "Ro", "Ser", "Tou", "Val", "Ver", "Vil"],
    endings: ["chard", "court", "mont", "lier", "rand", "ville", "taine", "net", "reau", "vert", "ssier", "lin", "rieux", "champ"],
  },
  {
    nationalities: [
      ["German", 7],
      ["Austrian", 1.5],
      ["Dutch", 2.5],
      ["Danish", 0.8],
      ["Swedish", 1.2],
      ["Norwegian", 0.8],
    ],
    given: [
      "Hans",
      "Anna",
      "Karl",
      "Greta",
      "Friedrich",
      "Liesel",
      "Otto",
      "Ingrid",
      "Johannes",
      "Helga",
      "Max",
      "Clara",
      "Willem",
      "Sanne",
      "Lars",
      "Astrid",
      "Erik",
      "Freja",
      "Pieter",
      "Maren",
      "Dieter",
      "Ute",
      "Jan",
      "Elke",
    ],
    stems: [
      "Alt",
      "Bach",
      "Berg",
      "Eisen",
      "Falk",
      "Gold",
      "Gruen",
      "Hoff",
      "Kessel",
      "Lind",
      "Neu",
      "Ost",
      "Rosen",
      "Schwarz",
      "Stein",
      "Vogel",
      "Wald",
      "Weiss",
      "Winter",
      "Zimmer",
    ],
    endings: ["mann", "berg", "hof", "stein", "feld", "bach", "dorf", "haus", "er", "brand", "sen", "gaard", "qvist", "huis"],
  },
  {
    nationalities: [
      ["Italian", 5],
      ["Spanish", 3.5],
      ["Portuguese", 0.8],
    ],
    given: [
      "Giovanni",
      "Maria",
      "Luca",
      "Giulia",
      "Marco",
      "Chiara",
      "Alessandro",
      "Francesca",
      "Pablo",
      "Lucía",
      "Javier",
      "Carmen",
      "Diego",
      "Elena",
      "Antonio",
      "Sofia",
      "Joaquim",
      "Beatriz",
      "Enzo",
      "Rosa",
      "Salvador",
      "Pilar",
    ],
    stems: ["Bel", "Bianc", "Caval", "Fer", "Gal", "Lom", "Mar", "Mor", "Ross", "Sal", "Tor", "Val", "Alv", "Cas", "Gon", "Her", "Mend", "Olive", "Sant", "Vidal"],
    endings: ["ini", "etti", "ardi", "oni", "ucci", "ella", "elli", "aro", "ez", "ero", "ado", "eira", "ano", "ossi"],
  },
  {
    nationalities: [
      ["Russian", 2],
      ["Polish", 1.5],
      ["Czech", 0.8],
      ["Ukrainian", 0.7],
      ["Hungarian", 0.7],
    ],
    given: [
      "Ivan",
      "Olga",
      "Dmitri",
      "Natalia",
      "Sergei",
      "Irina",
      "Pavel",
      "Tatiana",
      "Piotr",
      "Agnieszka",
      "Tomasz",
      "Zofia",
      "Jiří",
      "Eva",
      "Andriy",
      "Oksana",
      "László",
      "Katalin",
      "Mikhail",
      "Vera",
    ],
    stems: ["Bor", "Dub", "Kov", "Kral", "Les", "Mal", "Nov", "Orl", "Pet", "Sok", "Vol", "Zar", "Wis", "Kam", "Hor", "Bel"],
    endings: ["ov", "ova", "ski", "ska", "enko", "ák", "ová", "in", "ich", "ewicz", "czyk", "ényi"],
  },
  {
    nationalities: [
      ["Chinese", 8],
      ["Taiwanese", 1],
      ["Hong Kong", 0.8],
      ["Singaporean", 0.5],
    ],
    given: ["Wei", "Fang", "Jun", "Li", "Ming", "Xiu", "Hao", "Ying", "Lei", "Mei", "Tao", "Hui", "Qiang", "Lan", "Bo", "Jing", "Zhen", "Yun"],
    stems: ["Chen", "Wang", "Zhang", "Liu", "Huang", "Zhao", "Wu", "Zhou", "Xu", "Sun", "Ma", "Zhu", "Hu", "Guo", "He", "Lin", "Luo", "Gao", "Tang", "Song"],
    endings: [""],
  },
  {
    nationalities: [
      ["Japanese", 3],
      ["Korean", 1.8],
    ],
    given: ["Haruki", "Yuki", "Kenji", "Aiko", "Takeshi", "Emiko", "Hiroshi", "Sakura", "Daisuke", "Naomi", "Min-jun", "Seo-yeon", "Ji-ho", "Ha-eun", "Tae-yang", "Su-bin"],
    stems: ["Yama", "Naka", "Taka", "Kawa", "Mori", "Fuji", "Ishi", "Matsu", "Hayashi", "Kim", "Park", "Lee", "Choi", "Jung", "Kang"],
    endings: ["moto", "mura", "da", "ta", "saki", "kawa", "", "", "no"],
  },
  {
    nationalities: [
      ["Indian", 2],
      ["Pakistani", 0.4],
    ],
    given: ["Arjun", "Priya", "Rahul", "Ananya", "Vikram", "Kavya", "Sanjay", "Meera", "Amrita", "Ravi", "Nandini", "Farhan", "Zoya", "Tyeb"],
    stems: ["Cha", "Gup", "Kap", "Meh", "Nar", "Pat", "Raz", "Sha", "Sin", "Ver", "Bhat", "Desh", "Mukh"],
    endings: ["tta", "oor", "ta", "ra", "el", "ma", "gh", "pande", "erjee", "ayan"],
  },
  {
    nationalities: [
      ["Mexican", 1.2],
      ["Brazilian", 1.5],
      ["Argentine", 1],
      ["Colombian", 0.6],
      ["Cuban", 0.6],
      ["Chilean", 0.4],
    ],
    given: ["José", "Ana", "Carlos", "Lucia", "Miguel", "Isabela", "Rafael", "Camila", "Fernando", "Valentina", "Mateo", "Gabriela", "Tarsila", "Rufino", "Wifredo", "Frida"],
    stems: ["Agu", "Bar", "Cam", "Dom", "Esc", "Fig", "Gue", "Iba", "Leg", "Mon", "Nav", "Oro", "Quin", "Rey", "Sil", "Tam"],
    endings: ["ilar", "rios", "pos", "inguez", "obar", "ueroa", "rrero", "rra", "orreta", "tero", "arro", "zco", "tana", "va", "ayo"],
  },
  {
    nationalities: [
      ["South African", 0.6],
      ["Nigerian", 0.7],
      ["Ghanaian", 0.4],
      ["Egyptian", 0.4],
      ["Iranian", 0.6],
      ["Turkish", 0.7],
      ["Israeli", 0.8],
      ["Lebanese", 0.4],
    ],
    given: ["Kwame", "Amara", "Chidi", "Ngozi", "Yaw", "Abena", "Omar", "Layla", "Reza", "Shirin", "Emre", "Elif", "Noa", "Avi", "Karim", "Nadia"],
    stems: ["Ade", "Oko", "Man", "Asa", "Far", "Had", "Kar", "Naz", "Yil", "Ben", "Ozt", "Sab"],
    endings: ["yemi", "nkwo", "sah", "nte", "ahani", "idi", "imi", "diz", "ürk", "ry", "ani", "oun"],
  },
];

const NATIONALITY_TABLE: { group: number; nationality: string; cumulative: number }[] = [];
{
  let acc = 0;
  GROUPS.forEach((g, gi) =>
    g.nationalities.forEach(([n, w]) => {
      acc += w;
      NATIONALITY_TABLE.push({ group: gi, nationality: n, cumulative: acc });
    }),
  );
}
const NATIONALITY_TOTAL = NATIONALITY_TABLE[NATIONALITY_TABLE.length - 1]!.cumulative;

export function pickNationality(rng: Random): { nationality: string; group: number } {
  const x = rng.next() * NATIONALITY_TOTAL;
  for (const row of NATIONALITY_TABLE) if (x < row.cumulative) return { nationality: row.nationality, group: row.group };
  const last = NATIONALITY_TABLE[NATIONALITY_TABLE.length - 1]!;
  return { nationality: last.nationality, group: last.group };
}

export function artistName(rng: Random, group: number): { name: string; synonyms: string[] } {
  const g = GROUPS[group]!;
  const given = rng.pick(g.given);
  const family = rng.pick(g.stems) + rng.pick(g.endings);
  const eastAsian = group === 5;
  const name = eastAsian ? `${family} ${given}` : `${given} ${family}`;
  const synonyms = eastAsian ? [`${given} ${family}`] : [`${given[0]}. ${family}`, `${family}, ${given}`];
  if (rng.chance(0.08)) synonyms.push(`${name} (${rng.pick(["the Younger", "the Elder", "studio of", "school of"])})`);
  return { name, synonyms };
}

const SUBJECTS: Readonly<Record<string, readonly string[]>> = {
  Painting: [
    "Still Life with Lemons",
    "Portrait of a Woman",
    "Landscape near the River",
    "Harbour at Dusk",
    "Composition",
    "Interior with Chair",
    "Figures on a Beach",
    "Red Field",
    "Garden in Spring",
    "The Blue Room",
    "Nocturne",
    "Abstract",
    "Self-Portrait",
    "Bathers",
    "Street Scene",
    "Mountain Study",
    "Flowers in a Vase",
    "Two Figures",
  ],
  "Works on paper": [
    "Study for a Portrait",
    "Sketch of a Horse",
    "Figure Study",
    "Untitled (Drawing)",
    "View of the Bay",
    "Study of Hands",
    "Reclining Nude",
    "Tree Study",
    "Botanical Study",
    "Seated Figure",
  ],
  Sculpture: ["Standing Figure", "Head", "Reclining Form", "Torso", "Mother and Child", "Bird", "Column", "Spiral", "Bust of a Young Man", "Maquette"],
  "Prints and multiples": ["Flowers", "Portfolio Plate", "Self-Portrait", "Marilyn Variation", "Composition in Blue", "Suite", "Bullfight", "Skyline", "Alphabet", "Repetition"],
  Photography: [
    "Untitled Film Still",
    "Street, New York",
    "Dunes",
    "Portrait of the Artist's Mother",
    "Industrial Landscape",
    "Night Swimming",
    "Interior",
    "Crowd",
    "Glacier",
    "Shadows",
  ],
  Design: ["Lounge Chair", "Table Lamp", "Cabinet", "Armchair", "Desk", "Sideboard", "Floor Lamp", "Stool"],
  "Decorative art": ["Vase", "Bowl", "Tapestry", "Clock", "Candelabra", "Ewer", "Charger", "Screen"],
  Installation: ["Environment", "Room", "Untitled (Installation)", "Field", "Passage", "Archive"],
  "New media": ["Loop", "Signal", "Untitled (Video)", "Algorithmic Study", "Broadcast", "Screen Memory"],
};

export function artworkTitle(rng: Random, category: string, year: number | null): string {
  const subjects = SUBJECTS[category] ?? SUBJECTS.Painting!;
  const roll = rng.next();
  if (roll < 0.12) return "Untitled";
  if (roll < 0.2) return `Untitled${year ? ` (${year})` : ""}`;
  const subject = rng.pick(subjects);
  if (roll < 0.32) return `${subject} No. ${rng.int(1, 40)}`;
  if (roll < 0.38) return `${subject} (${rng.pick(["I", "II", "III", "IV", "V"])})`;
  return subject;
}

const SALE_THEMES = [
  "Impressionist and Modern Art",
  "Contemporary Art",
  "Post-War and Contemporary Art",
  "Old Masters",
  "19th Century European Art",
  "Prints and Multiples",
  "Photographs",
  "Modern and Contemporary Asian Art",
  "Latin American Art",
  "American Art",
  "Design",
  "Works on Paper",
  "Fine Art",
  "Collections",
];

export function saleName(rng: Random, house: string, online: boolean, evening: boolean): string {
  const theme = rng.pick(SALE_THEMES);
  const session = online ? "Online" : evening ? "Evening Sale" : "Day Sale";
  if (rng.chance(0.12)) return `The ${rng.pick(["Hartley", "Valmont", "Ostrova", "Kessler", "Aldine", "Marchetti"])} Collection: ${theme}`;
  return `${theme} ${session}`;
}

export const NOTE_PHRASES = [
  "signed and dated lower right",
  "signed on the reverse",
  "stamped with the estate stamp",
  "inscribed with the title on the stretcher",
  "exhibited at the artist's retrospective",
  "illustrated in the catalogue raisonné",
  "provenance: private collection, acquired directly from the artist",
  "provenance: by descent in the family",
  "in the original frame",
  "literature: monograph, illustrated in colour",
  "from a distinguished private collection",
  "the present work is accompanied by a certificate of authenticity",
];
