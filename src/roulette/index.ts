// Who is waiting for a roulette partner, indexed so that a search reads only people who suit it
// both ways. A waiting person sits in four buckets keyed by
//   (what they accept: gender filter, country filter) x (what they are: gender or *, country or *).
// A searcher then needs at most four buckets: those accepting "any" or exactly the searcher's own
// gender and country, each read at the searcher's wanted gender and country (or * for "any").
// Everyone in those buckets suits the searcher and is suited by them, and the four are disjoint.
// Each bucket keeps arrival order, and the four are merged by arrival number, so the searcher
// still meets the longest-waiting person who suits, as the full scan did.

export interface RouletteFilters {
  gender: "any" | "male" | "female";
  /** "any" or an upper-case country code. */
  country: string;
}

/** What a stranger may learn, read once when its owner starts searching. */
export interface RouletteProfile {
  userId: number;
  gender: string;
  countryCode: string | null;
  countryName?: string | null;
  age?: number | null;
}

export interface Entry<S> {
  profile: RouletteProfile;
  filters: RouletteFilters;
  socket: S;
  /** Arrival number: smaller waited longer. */
  seq: number;
  keys: string[];
}

const ALL = "*";
const key = (acceptGender: string, acceptCountry: string, gender: string, country: string) => `${acceptGender}|${acceptCountry}|${gender}|${country}`;

export class WaitingIndex<S> {
  private readonly entries = new Map<number, Entry<S>>();
  private readonly buckets = new Map<string, Map<number, Entry<S>>>();
  private seq = 0;

  get size(): number {
    return this.entries.size;
  }

  has(userId: number): boolean {
    return this.entries.has(userId);
  }

  get(userId: number): Entry<S> | undefined {
    return this.entries.get(userId);
  }

  /** Adds at the back of the line (a repeated search waits anew). */
  add(profile: RouletteProfile, filters: RouletteFilters, socket: S): Entry<S> {
    this.remove(profile.userId);
    const { gender, countryCode } = profile;
    // No country: found only by searchers who take any country.
    const country = countryCode ?? ALL;
    const keys = [key(filters.gender, filters.country, gender, country), key(filters.gender, filters.country, ALL, country)];
    if (countryCode !== null) keys.push(key(filters.gender, filters.country, gender, ALL), key(filters.gender, filters.country, ALL, ALL));
    const entry: Entry<S> = { profile, filters, socket, seq: ++this.seq, keys: [...new Set(keys)] };
    this.entries.set(profile.userId, entry);
    for (const k of entry.keys) {
      let bucket = this.buckets.get(k);
      if (!bucket) this.buckets.set(k, (bucket = new Map()));
      bucket.set(profile.userId, entry);
    }
    return entry;
  }

  /** Takes the user out of every bucket; empty buckets are dropped so that memory follows who waits. */
  remove(userId: number): Entry<S> | undefined {
    const entry = this.entries.get(userId);
    if (!entry) return undefined;
    this.entries.delete(userId);
    for (const k of entry.keys) {
      const bucket = this.buckets.get(k)!;
      bucket.delete(userId);
      if (bucket.size === 0) this.buckets.delete(k);
    }
    return entry;
  }

  /** Everyone waiting who suits `profile`'s filters and whose filters `profile` suits, longest-waiting first. */
  *matches(profile: RouletteProfile, filters: RouletteFilters): Generator<Entry<S>> {
    const wantGender = filters.gender === "any" ? ALL : filters.gender;
    const wantCountry = filters.country === "any" ? ALL : filters.country;
    const acceptGenders = profile.gender === "any" ? ["any"] : ["any", profile.gender];
    const acceptCountries = profile.countryCode === null ? ["any"] : ["any", profile.countryCode];
    const lines: Iterator<Entry<S>>[] = [];
    for (const g of acceptGenders) {
      for (const c of acceptCountries) {
        const bucket = this.buckets.get(key(g, c, wantGender, wantCountry));
        if (bucket) lines.push(bucket.values());
      }
    }
    yield* merge(lines, profile.userId);
  }
}

/** Merges lines that are each in arrival order into one, skipping `self`. */
function* merge<S>(lines: Iterator<Entry<S>>[], self: number): Generator<Entry<S>> {
  const heads = lines.map((line) => line.next());
  for (;;) {
    let best = -1;
    for (let i = 0; i < heads.length; i++) {
      const head = heads[i]!;
      if (!head.done && (best < 0 || head.value.seq < (heads[best]!.value as Entry<S>).seq)) best = i;
    }
    if (best < 0) return;
    const entry = heads[best]!.value as Entry<S>;
    heads[best] = lines[best]!.next();
    if (entry.profile.userId !== self) yield entry;
  }
}
