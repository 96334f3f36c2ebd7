// Every country as a plain <select>: works with JavaScript off, and the enhancement script builds
// the searchable picker with flags from these same options, so the list is sent once.
import { countries } from "../../geo/countries.ts";

type Aria = { id: string; name: string; "aria-invalid"?: true; "aria-describedby": string };

export function CountrySelect({ aria, value }: { aria: Aria; value?: string }) {
  return (
    <select {...aria} required defaultValue={value ?? ""} data-country-select="">
      <option value="">Select country</option>
      {countries.map((c) => (
        <option key={c.code} value={c.code}>
          {c.name}
        </option>
      ))}
    </select>
  );
}
