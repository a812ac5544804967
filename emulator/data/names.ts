/** Name material for synthetic companies and people (common German names). */
export const SURNAMES = [
  "Müller", "Schmidt", "Schneider", "Fischer", "Weber", "Meyer", "Wagner", "Becker", "Schulz", "Hoffmann",
  "Schäfer", "Koch", "Bauer", "Richter", "Klein", "Wolf", "Schröder", "Neumann", "Schwarz", "Zimmermann",
  "Braun", "Krüger", "Hofmann", "Hartmann", "Lange", "Schmitt", "Werner", "Schmitz", "Krause", "Meier",
  "Lehmann", "Schmid", "Schulze", "Maier", "Köhler", "Herrmann", "König", "Walter", "Mayer", "Huber",
  "Kaiser", "Fuchs", "Peters", "Lang", "Scholz", "Möller", "Weiß", "Jung", "Hahn", "Schubert",
  "Vogel", "Friedrich", "Keller", "Günther", "Frank", "Berger", "Winkler", "Roth", "Beck", "Lorenz",
  "Baumann", "Franke", "Albrecht", "Schuster", "Simon", "Ludwig", "Böhm", "Winter", "Kraus", "Martin",
  "Schumacher", "Krämer", "Vogt", "Stein", "Jäger", "Otto", "Sommer", "Groß", "Seidel", "Heinrich",
  "Brandt", "Haas", "Schreiber", "Graf", "Schulte", "Dietrich", "Ziegler", "Kuhn", "Kühn", "Pohl",
  "Engel", "Horn", "Busch", "Bergmann", "Thomas", "Voigt", "Sauer", "Arnold", "Wolff", "Pfeiffer",
  "Yılmaz", "Nowak", "Kowalski", "Öztürk", "Petrović", "Rossi", "Hansen", "Jansen", "Lindner", "Ebert",
];
export const FIRST_NAMES = [
  "Thomas", "Michael", "Andreas", "Stefan", "Christian", "Markus", "Frank", "Jörg", "Peter", "Matthias",
  "Alexander", "Daniel", "Jan", "Tobias", "Sebastian", "Florian", "Martin", "Jürgen", "Uwe", "Klaus",
  "Sabine", "Petra", "Claudia", "Susanne", "Andrea", "Nicole", "Stefanie", "Julia", "Katrin", "Anja",
  "Birgit", "Monika", "Christina", "Sandra", "Melanie", "Anna", "Laura", "Lena", "Sarah", "Lisa",
  "Mehmet", "Ayşe", "Piotr", "Elena", "Lukas", "Jonas", "Leon", "Sophie", "Marie", "Hannah",
];
/** Syllables for invented brand names ("Nordtec", "Alvaro", "Heliotron"). */
export const BRAND_HEADS = ["Nord", "Süd", "West", "Ost", "Alpha", "Beta", "Neo", "Helio", "Terra", "Aqua", "Vita", "Pro", "Inno", "Multi", "Opti", "Astra", "Lumi", "Quant", "Silva", "Rhein", "Elb", "Isar", "Main", "Spree", "Nova", "Primus", "Delta", "Kappa", "Zenit", "Fortis"];
export const BRAND_TAILS = ["tec", "tronic", "plan", "data", "soft", "med", "bau", "logic", "werk", "form", "line", "net", "vision", "trans", "flex", "sys", "con", "log", "ware", "print"];
