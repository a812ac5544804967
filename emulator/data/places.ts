/**
 * Real German cities: postcode range, coordinates, federal state (ISO 3166-2)
 * and the Amtsgericht that keeps their commercial register. `weight` is roughly
 * the population in 10,000s so synthetic companies cluster where real ones do.
 * Postcodes are drawn from [zipFrom, zipTo]; not every number in a range is
 * assigned in reality, but each lies in the city's real postal area.
 */
export interface City {
  name: string;
  zipFrom: number;
  zipTo: number;
  lat: number;
  lon: number;
  state: string;
  court: string;
  weight: number;
}

type Row = [string, number, number, number, number, string, string, number];
const ROWS: Row[] = [
  ["Berlin", 10115, 14199, 52.52, 13.405, "DE-BE", "Charlottenburg (Berlin)", 370],
  ["Hamburg", 20095, 22769, 53.5511, 9.9937, "DE-HH", "Hamburg", 185],
  ["München", 80331, 81929, 48.1351, 11.582, "DE-BY", "München", 150],
  ["Köln", 50667, 51149, 50.9375, 6.9603, "DE-NW", "Köln", 108],
  ["Frankfurt am Main", 60306, 65936, 50.1109, 8.6821, "DE-HE", "Frankfurt am Main", 76],
  ["Stuttgart", 70173, 70619, 48.7758, 9.1829, "DE-BW", "Stuttgart", 63],
  ["Düsseldorf", 40210, 40629, 51.2277, 6.7735, "DE-NW", "Düsseldorf", 62],
  ["Leipzig", 4103, 4357, 51.3397, 12.3731, "DE-SN", "Leipzig", 60],
  ["Dortmund", 44135, 44388, 51.5136, 7.4653, "DE-NW", "Dortmund", 59],
  ["Essen", 45127, 45359, 51.4556, 7.0116, "DE-NW", "Essen", 58],
  ["Bremen", 28195, 28779, 53.0793, 8.8017, "DE-HB", "Bremen", 56],
  ["Dresden", 1067, 1326, 51.0504, 13.7373, "DE-SN", "Dresden", 56],
  ["Hannover", 30159, 30669, 52.3759, 9.732, "DE-NI", "Hannover", 54],
  ["Nürnberg", 90402, 90491, 49.4521, 11.0767, "DE-BY", "Nürnberg", 52],
  ["Duisburg", 47051, 47279, 51.4344, 6.7623, "DE-NW", "Duisburg", 50],
  ["Bochum", 44787, 44894, 51.4818, 7.2162, "DE-NW", "Bochum", 36],
  ["Wuppertal", 42103, 42399, 51.2562, 7.1508, "DE-NW", "Wuppertal", 36],
  ["Bielefeld", 33602, 33739, 52.0302, 8.5325, "DE-NW", "Bielefeld", 33],
  ["Bonn", 53111, 53229, 50.7374, 7.0982, "DE-NW", "Bonn", 33],
  ["Münster", 48143, 48167, 51.9607, 7.6261, "DE-NW", "Münster", 32],
  ["Karlsruhe", 76131, 76229, 49.0069, 8.4037, "DE-BW", "Mannheim", 31],
  ["Mannheim", 68159, 68309, 49.4875, 8.466, "DE-BW", "Mannheim", 31],
  ["Augsburg", 86150, 86199, 48.3705, 10.8978, "DE-BY", "Augsburg", 30],
  ["Wiesbaden", 65183, 65207, 50.0782, 8.2398, "DE-HE", "Wiesbaden", 28],
  ["Mönchengladbach", 41061, 41239, 51.1805, 6.4428, "DE-NW", "Mönchengladbach", 26],
  ["Gelsenkirchen", 45879, 45899, 51.5177, 7.0857, "DE-NW", "Gelsenkirchen", 26],
  ["Aachen", 52062, 52080, 50.7753, 6.0839, "DE-NW", "Aachen", 25],
  ["Braunschweig", 38100, 38126, 52.2689, 10.5268, "DE-NI", "Braunschweig", 25],
  ["Kiel", 24103, 24159, 54.3233, 10.1228, "DE-SH", "Kiel", 25],
  ["Chemnitz", 9111, 9247, 50.8278, 12.9214, "DE-SN", "Chemnitz", 24],
  ["Halle (Saale)", 6108, 6132, 51.4969, 11.9688, "DE-ST", "Stendal", 24],
  ["Magdeburg", 39104, 39130, 52.1205, 11.6276, "DE-ST", "Stendal", 24],
  ["Freiburg im Breisgau", 79098, 79117, 47.999, 7.8421, "DE-BW", "Freiburg", 23],
  ["Krefeld", 47798, 47839, 51.3388, 6.5853, "DE-NW", "Krefeld", 23],
  ["Mainz", 55116, 55131, 49.9929, 8.2473, "DE-RP", "Mainz", 22],
  ["Lübeck", 23552, 23570, 53.8655, 10.6866, "DE-SH", "Lübeck", 22],
  ["Erfurt", 99084, 99099, 50.9848, 11.0299, "DE-TH", "Jena", 21],
  ["Oberhausen", 46045, 46149, 51.4963, 6.8638, "DE-NW", "Duisburg", 21],
  ["Rostock", 18055, 18147, 54.0924, 12.0991, "DE-MV", "Rostock", 21],
  ["Kassel", 34117, 34134, 51.3127, 9.4797, "DE-HE", "Kassel", 20],
  ["Hagen", 58089, 58135, 51.367, 7.4633, "DE-NW", "Hagen", 19],
  ["Potsdam", 14467, 14482, 52.3906, 13.0645, "DE-BB", "Potsdam", 18],
  ["Saarbrücken", 66111, 66133, 49.2402, 6.9969, "DE-SL", "Saarbrücken", 18],
  ["Hamm", 59063, 59077, 51.6739, 7.815, "DE-NW", "Hamm", 18],
  ["Ludwigshafen am Rhein", 67059, 67071, 49.4774, 8.4452, "DE-RP", "Ludwigshafen am Rhein", 17],
  ["Oldenburg", 26121, 26135, 53.1435, 8.2146, "DE-NI", "Oldenburg", 17],
  ["Osnabrück", 49074, 49090, 52.2799, 8.0472, "DE-NI", "Osnabrück", 17],
  ["Leverkusen", 51371, 51381, 51.0459, 7.0192, "DE-NW", "Köln", 16],
  ["Heidelberg", 69115, 69126, 49.3988, 8.6724, "DE-BW", "Mannheim", 16],
  ["Darmstadt", 64283, 64297, 49.8728, 8.6512, "DE-HE", "Darmstadt", 16],
  ["Solingen", 42651, 42719, 51.1652, 7.0671, "DE-NW", "Wuppertal", 16],
  ["Regensburg", 93047, 93059, 49.0134, 12.1016, "DE-BY", "Regensburg", 15],
  ["Ingolstadt", 85049, 85057, 48.7665, 11.4258, "DE-BY", "Ingolstadt", 14],
  ["Würzburg", 97070, 97084, 49.7913, 9.9534, "DE-BY", "Würzburg", 13],
  ["Wolfsburg", 38440, 38448, 52.4227, 10.7865, "DE-NI", "Braunschweig", 12],
  ["Ulm", 89073, 89081, 48.4011, 9.9876, "DE-BW", "Ulm", 13],
  ["Heilbronn", 74072, 74081, 49.1427, 9.2109, "DE-BW", "Stuttgart", 13],
  ["Pforzheim", 75172, 75181, 48.8922, 8.6946, "DE-BW", "Mannheim", 13],
  ["Göttingen", 37073, 37085, 51.5413, 9.9158, "DE-NI", "Göttingen", 12],
  ["Bottrop", 46236, 46244, 51.5247, 6.9229, "DE-NW", "Gelsenkirchen", 12],
  ["Trier", 54290, 54296, 49.7499, 6.6371, "DE-RP", "Wittlich", 11],
  ["Jena", 7743, 7751, 50.9272, 11.5892, "DE-TH", "Jena", 11],
  ["Erlangen", 91052, 91058, 49.5897, 11.0078, "DE-BY", "Fürth", 11],
  ["Koblenz", 56068, 56077, 50.3569, 7.594, "DE-RP", "Koblenz", 11],
  ["Siegen", 57072, 57080, 50.8748, 8.0243, "DE-NW", "Siegen", 10],
  ["Gütersloh", 33330, 33335, 51.9032, 8.3858, "DE-NW", "Gütersloh", 10],
  ["Schwerin", 19053, 19063, 53.6355, 11.4012, "DE-MV", "Schwerin", 10],
  ["Esslingen am Neckar", 73728, 73734, 48.7406, 9.3108, "DE-BW", "Stuttgart", 9],
  ["Bamberg", 96047, 96052, 49.8988, 10.9028, "DE-BY", "Bamberg", 8],
  ["Passau", 94032, 94036, 48.5665, 13.4312, "DE-BY", "Passau", 5],
  ["Konstanz", 78462, 78467, 47.6603, 9.1758, "DE-BW", "Freiburg", 8],
  ["Flensburg", 24937, 24944, 54.7937, 9.4469, "DE-SH", "Flensburg", 9],
  ["Cottbus", 3042, 3055, 51.7563, 14.3329, "DE-BB", "Cottbus", 10],
  ["Walldorf", 69190, 69190, 49.3064, 8.6428, "DE-BW", "Mannheim", 2],
  ["Gerlingen", 70839, 70839, 48.7994, 9.0631, "DE-BW", "Stuttgart", 2],
  ["Herzogenaurach", 91074, 91074, 49.5676, 10.8859, "DE-BY", "Fürth", 2],
  ["Ditzingen", 71254, 71254, 48.8267, 9.0669, "DE-BW", "Stuttgart", 2],
  ["Garching bei München", 85748, 85748, 48.2488, 11.6532, "DE-BY", "München", 2],
  ["Unterföhring", 85774, 85774, 48.1922, 11.6436, "DE-BY", "München", 1],
  ["Eschborn", 65760, 65760, 50.1436, 8.5711, "DE-HE", "Frankfurt am Main", 2],
  ["Neckarsulm", 74172, 74172, 49.1919, 9.2243, "DE-BW", "Stuttgart", 3],
];

export const CITIES: readonly City[] = ROWS.map(([name, zipFrom, zipTo, lat, lon, state, court, weight]) => ({
  name,
  zipFrom,
  zipTo,
  lat,
  lon,
  state,
  court,
  weight,
}));
export const CITY_WEIGHTS: readonly number[] = CITIES.map((c) => c.weight);

/** Aliases the reference data uses for cities listed under their full names. */
const CITY_ALIASES: Record<string, string> = {
  ludwigshafen: "Ludwigshafen am Rhein",
  frankfurt: "Frankfurt am Main",
  freiburg: "Freiburg im Breisgau",
  halle: "Halle (Saale)",
};

export function cityIndex(name: string): number {
  const alias = CITY_ALIASES[name.toLowerCase()];
  const wanted = alias ?? name;
  return CITIES.findIndex((c) => c.name === wanted);
}

export function formatZip(n: number): string {
  return String(n).padStart(5, "0");
}

export const STREETS = [
  "Hauptstraße",
  "Bahnhofstraße",
  "Schillerstraße",
  "Goethestraße",
  "Gartenstraße",
  "Lindenstraße",
  "Industriestraße",
  "Friedrichstraße",
  "Kirchstraße",
  "Bergstraße",
  "Ringstraße",
  "Mühlenweg",
  "Am Markt",
  "Dorfstraße",
  "Poststraße",
  "Wilhelmstraße",
  "Parkstraße",
  "Rosenweg",
  "Kantstraße",
  "Gewerbestraße",
  "Im Technologiepark",
  "Hafenstraße",
  "Marktplatz",
  "Lessingstraße",
  "Feldstraße",
];
