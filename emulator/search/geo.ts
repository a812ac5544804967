/** A fixed grid over Germany so radius queries touch only nearby cells. */
import { nth } from "../indexed.ts";
const CELL = 0.1; // degrees latitude (~11 km); longitude cells are widened to stay roughly square
const LON_CELL = 0.15;

export function distanceKm(lat1: number, lon1: number, lat2: number, lon2: number): number {
  const rad = Math.PI / 180;
  const dLat = (lat2 - lat1) * rad;
  const dLon = (lon2 - lon1) * rad;
  const a = Math.sin(dLat / 2) ** 2 + Math.cos(lat1 * rad) * Math.cos(lat2 * rad) * Math.sin(dLon / 2) ** 2;
  return 6371.0088 * 2 * Math.asin(Math.min(1, Math.sqrt(a)));
}

export class GeoGrid {
  private cells = new Map<number, number[]>();
  constructor(
    private lat: Float64Array,
    private lon: Float64Array,
  ) {
    for (let i = 0; i < lat.length; i++) {
      const key = this.key(Math.floor(nth(lat, i) / CELL), Math.floor(nth(lon, i) / LON_CELL));
      let list = this.cells.get(key);
      if (!list) this.cells.set(key, (list = []));
      list.push(i);
    }
  }
  private key(row: number, col: number): number {
    return row * 10_000 + col;
  }
  /** Every company within radiusKm of the point, with its distance. */
  within(lat: number, lon: number, radiusKm: number, visit: (idx: number, km: number) => void): void {
    const dLat = radiusKm / 111.2;
    const dLon = radiusKm / (111.2 * Math.max(0.2, Math.cos((lat * Math.PI) / 180)));
    const r0 = Math.floor((lat - dLat) / CELL),
      r1 = Math.floor((lat + dLat) / CELL);
    const c0 = Math.floor((lon - dLon) / LON_CELL),
      c1 = Math.floor((lon + dLon) / LON_CELL);
    for (let r = r0; r <= r1; r++) {
      for (let c = c0; c <= c1; c++) {
        const list = this.cells.get(this.key(r, c));
        if (!list) continue;
        for (const i of list) {
          const km = distanceKm(lat, lon, nth(this.lat, i), nth(this.lon, i));
          if (km <= radiusKm) visit(i, km);
        }
      }
    }
  }
}
